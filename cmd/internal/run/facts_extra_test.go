package run

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// Patterns with wildcards in directories are read in a query of their own: when it fails,
// only they stay unread (their checks fail closed), the others are read, and the job log
// says why.
func TestExtraFactsDeepPatternsFailAlone(t *testing.T) {
	fake := faketest.New(t)
	fake.AddRepo("acme/widgets", "main")
	fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x", Files: []string{"src/a/auth/x_test.go", "CHANGELOG.md"}})
	client := botClient(t, fake)
	src := []byte(`version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: g
        type: gate
        conditions:
          - {check: file_exists, paths: [CHANGELOG.md, "docs/*.md", "src/**/auth/*_test.go"]}
        on_pass: complete
`)
	cfg, err := engine.Load("p.yaml", src, gates.Default())
	require.NoError(t, err)
	facts := func() *model.Facts {
		return &model.Facts{PR: &model.PullRequest{Number: 7, State: model.PROpen, HeadSHA: fake.PR("acme/widgets", 7).HeadSHA}}
	}

	f := facts()
	require.NoError(t, extraFactsWarn(t.Context(), client, cfg, f, "", func(string, ...any) { t.Fatal("no warning expected") }))
	assert.Equal(t, map[string]bool{"CHANGELOG.md": true, "docs/*.md": false, "src/**/auth/*_test.go": true}, f.PR.PathsExist)

	fake.Inject("graphql", ghfake.Fault{Status: 502, Message: "Bad Gateway", Skip: 1})
	var warned []string
	f = facts()
	require.NoError(t, extraFactsWarn(t.Context(), client, cfg, f, "", func(format string, args ...any) {
		warned = append(warned, fmt.Sprintf(format, args...))
	}))
	assert.Equal(t, map[string]bool{"CHANGELOG.md": true, "docs/*.md": false}, f.PR.PathsExist)
	require.Len(t, warned, 1)
	assert.Contains(t, warned[0], "file_exists: src/**/auth/*_test.go not read")
}
