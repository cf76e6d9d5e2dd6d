package ghapi

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

func TestClosingIssuesInBody(t *testing.T) {
	for _, tt := range []struct {
		body string
		want []int
	}{
		{"Fixes #3", []int{3}},
		{"fixes #3, closes #4 and RESOLVED #5", []int{3, 4, 5}},
		{"Closes: #12", []int{12}},
		{"close #1\nfix #2\nfixed #3\nresolve #4\nresolves #5\nclosed #6", []int{1, 2, 3, 4, 5, 6}},
		{"Fixes acme/widgets#7", []int{7}},
		{"Fixes ACME/Widgets#7", []int{7}},
		{"Fixes other/repo#7", nil},
		{"Fixes https://github.com/acme/widgets/issues/8", []int{8}},
		{"Fixes https://github.com/other/repo/issues/8", nil},
		{"Fixes #3 and fixes #3", []int{3}},
		{"See #3", nil},
		{"prefixes #3", nil},
		{"Fixes#3", nil},
		{"Fixes #3x", nil},
		{"`Fixes #3`", nil},
		{"```\nFixes #3\n```\nCloses #4", []int{4}},
		{"Fixes #0", nil},
	} {
		assert.Equal(t, tt.want, closingIssuesInBody(tt.body, "acme/widgets"), tt.body)
	}
}

func TestLinkFromBodyOnlyOffTheDefaultBranch(t *testing.T) {
	pr := &model.PullRequest{BaseRef: "main"}
	linkFromBody(pr, "Fixes #3", "acme/widgets", "main")
	assert.Empty(t, pr.LinkedIssues, "into the default branch GitHub's links are the truth")

	pr = &model.PullRequest{BaseRef: "dev", LinkedIssues: []int{9}}
	linkFromBody(pr, "Fixes #3", "acme/widgets", "main")
	assert.Equal(t, []int{9}, pr.LinkedIssues, "GitHub's links, when it has some, are kept")
	assert.Empty(t, pr.LinkedFrom)

	pr = &model.PullRequest{BaseRef: "dev"}
	linkFromBody(pr, "Fixes #3", "acme/widgets", "main")
	assert.Equal(t, []int{3}, pr.LinkedIssues)
	assert.Equal(t, model.LinkedFromBody, pr.LinkedFrom)
}
