package ghfake

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosingIssuesReferences(t *testing.T) {
	s := widgets(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 12, Author: "dev"})
	s.OpenIssue(testRepo, IssueOptions{Number: 13, Author: "dev"})
	s.OpenPR(testRepo, PROptions{Number: 20, Author: "dev", Body: "Fixes #12, closes: #13 and resolves #7 (a PR) and fixes #99 (none). Fixes #12 again."})
	s.OpenPR(testRepo, PROptions{Number: 21, Author: "dev", Base: "develop", Body: "Fixes #12"})
	s.OpenPR(testRepo, PROptions{Number: 22, Author: "dev", Body: "Mentions #12 without a keyword; prefixes #13"})
	s.OpenPR(testRepo, PROptions{Number: 23, Author: "dev", Body: "Fixes https://github.com/acme/widgets/issues/13"})
	q := `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { closingIssuesReferences(first: 10) { nodes { number } } } } }`
	numbers := func(n int) []any {
		out := gql(t, s, s.BotToken(), q, map[string]any{"n": n})
		nodes := dig(t, out, "data", "repository", "pullRequest", "closingIssuesReferences", "nodes").([]any)
		var got []any
		for _, x := range nodes {
			got = append(got, x.(map[string]any)["number"])
		}
		return got
	}
	assert.Equal(t, []any{float64(12), float64(13)}, numbers(20))
	assert.Empty(t, numbers(21), "only a pull request into the default branch closes issues")
	assert.Empty(t, numbers(22))
	assert.Equal(t, []any{float64(13)}, numbers(23), "an issue's URL after a keyword links it")
}
