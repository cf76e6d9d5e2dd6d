package ghapi_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// openPR opens #7 by dev from feat/login with the labels given and returns its head SHA.
func openPR(fake *ghfake.Server, labels ...string) string {
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login", Labels: labels})
	return fake.PR(repoName, 7).HeadSHA
}

func TestPerformMerge(t *testing.T) {
	tests := []struct {
		name          string
		method        string
		delete        bool
		wantDeleted   bool
		wantStatsREST map[string]int
	}{
		{name: "squash and delete the branch", method: "squash", delete: true, wantDeleted: true,
			wantStatsREST: map[string]int{"pulls/merge": 1, "git/delete-ref": 1}},
		{name: "rebase, keep the branch", method: "rebase",
			wantStatsREST: map[string]int{"pulls/merge": 1}},
		{name: "merge commit", method: "merge",
			wantStatsREST: map[string]int{"pulls/merge": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			head := openPR(fake)
			o := c.Perform(t.Context(), model.Effect{Key: "r1/merge/1/merge_pr", Kind: model.EffectMerge,
				Number: 7, SHA: head, Method: tt.method, Delete: tt.delete, HeadRef: "feat/login", HeadRepo: repoName})
			assert.Equal(t, model.Outcome{Key: "r1/merge/1/merge_pr"}, o)
			pr := fake.PR(repoName, 7)
			assert.True(t, pr.Merged)
			assert.Equal(t, "closed", pr.State)
			assert.Equal(t, tt.method, pr.MergeMethod)
			assert.Equal(t, ghfake.BotLogin, pr.MergedBy)
			assert.Equal(t, tt.wantDeleted, pr.BranchDeleted)
			assert.Equal(t, tt.wantStatsREST, fake.Stats())
			assertDocumented(t, fake)
		})
	}
}

// TestPerformMergeBranchGone checks that a merge stands when its branch cannot be deleted.
func TestPerformMergeBranchGone(t *testing.T) {
	fake, c := setup(t)
	head := openPR(fake)
	o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectMerge, Number: 7, SHA: head,
		Method: "squash", Delete: true, HeadRef: "no-such-branch", HeadRepo: repoName})
	assert.Empty(t, o.Err)
	assert.True(t, fake.PR(repoName, 7).Merged)
	assert.False(t, fake.PR(repoName, 7).BranchDeleted)
	assert.Equal(t, 1, fake.Stats()["git/delete-ref"], "tried once, refused with 422")
}

// TestPerformMergeRefused checks GitHub's refusals, injected and real: the message a human reads,
// and whether trying on a later event can help.
func TestPerformMergeRefused(t *testing.T) {
	tests := []struct {
		name      string
		prepare   func(fake *ghfake.Server) // after #7 is opened
		sha       func(fake *ghfake.Server, head string) string
		method    string
		wantErr   string
		permanent bool
		unknown   bool // it may have been performed
	}{
		{
			name:    "405 injected",
			prepare: func(f *ghfake.Server) { f.FailNext("pulls/merge", 405, "Pull Request is not mergeable") },
			wantErr: "merge refused (405): Pull Request is not mergeable",
		},
		{
			name: "409 injected",
			prepare: func(f *ghfake.Server) {
				f.FailNext("pulls/merge", 409, "Head branch was modified. Review and try the merge again.")
			},
			wantErr: "merge refused (409): Head branch was modified. Review and try the merge again.",
		},
		{
			name:      "422 injected",
			prepare:   func(f *ghfake.Server) { f.FailNext("pulls/merge", 422, "Validation Failed") },
			wantErr:   "merge refused (422): Validation Failed",
			permanent: true,
		},
		{
			name:      "403 injected",
			prepare:   func(f *ghfake.Server) { f.FailNext("pulls/merge", 403, "Resource not accessible by integration") },
			wantErr:   "merge refused (403): Resource not accessible by integration",
			permanent: true,
		},
		{
			name:    "500 injected",
			prepare: func(f *ghfake.Server) { f.FailNext("pulls/merge", 500, "Server Error") },
			wantErr: "merge: GitHub answered 500 (Server Error)",
			unknown: true,
		},
		{
			name:    "stale SHA: the head moved",
			prepare: func(f *ghfake.Server) { f.Push(repoName, 7) },
			wantErr: "merge refused (409): Head branch was modified. Review and try the merge again.",
		},
		{
			name:    "closed PR",
			prepare: func(f *ghfake.Server) { f.ClosePR(repoName, 7) },
			wantErr: "merge refused (405): Pull Request is not mergeable",
		},
		{
			name:    "conflicting PR",
			prepare: func(f *ghfake.Server) { f.SetMergeable(repoName, 7, "conflicting") },
			wantErr: "merge refused (405): Pull Request is not mergeable",
		},
		{
			name:      "unknown method",
			method:    "fast-forward",
			wantErr:   "merge refused (422): Invalid request.\n\n\"fast-forward\" is not a member of [\"merge\", \"squash\", \"rebase\"].",
			permanent: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			head := openPR(fake)
			if tt.prepare != nil {
				tt.prepare(fake)
			}
			method := tt.method
			if method == "" {
				method = "squash"
			}
			o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectMerge, Number: 7,
				SHA: head, Method: method, Delete: true, HeadRef: "feat/login", HeadRepo: repoName})
			assert.Equal(t, model.Outcome{Key: "k", Err: tt.wantErr, Permanent: tt.permanent, Unknown: tt.unknown}, o)
			pr := fake.PR(repoName, 7)
			assert.False(t, pr.Merged)
			assert.False(t, pr.BranchDeleted, "a refused merge deletes nothing")
			assert.Equal(t, map[string]int{"pulls/merge": 1}, fake.Stats())
			assertDocumented(t, fake)
		})
	}
}

func TestPerformLabels(t *testing.T) {
	tests := []struct {
		name    string
		has     []string
		effect  model.Effect
		want    []string
		wantErr string
		stats   map[string]int
	}{
		{
			name:   "add",
			has:    []string{"bug"},
			effect: model.Effect{Kind: model.EffectAddLabel, Labels: []string{"automerge", "ready to merge"}},
			want:   []string{"automerge", "bug", "ready to merge"},
			stats:  map[string]int{"issues/add-labels": 1},
		},
		{
			name:   "add one already there",
			has:    []string{"automerge"},
			effect: model.Effect{Kind: model.EffectAddLabel, Labels: []string{"automerge"}},
			want:   []string{"automerge"},
			stats:  map[string]int{"issues/add-labels": 1},
		},
		{
			name:   "remove",
			has:    []string{"automerge", "bug"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{"automerge"}},
			want:   []string{"bug"},
			stats:  map[string]int{"issues/remove-label": 1},
		},
		{
			name:   "remove several, one absent, one with a space",
			has:    []string{"bug", "needs review", "wip"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{"wip", "automerge", "needs review"}},
			want:   []string{"bug"},
			stats:  map[string]int{"issues/remove-label": 3, "issues/list-labels-on-issue": 1},
		},
		{
			name:   "remove one that is absent: a 404, and a fresh read confirms it",
			has:    []string{"bug"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{"automerge"}},
			want:   []string{"bug"},
			stats:  map[string]int{"issues/remove-label": 1, "issues/list-labels-on-issue": 1},
		},
		{
			name:   "remove a label in another case",
			has:    []string{"WIP", "bug"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{"wip"}},
			want:   []string{"bug"},
			stats:  map[string]int{"issues/remove-label": 1},
		},
		{
			name:   "remove the labels . and .., and only them",
			has:    []string{".", "..", "bug"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{".", ".."}},
			want:   []string{"bug"},
			stats:  map[string]int{"issues/remove-label": 2},
		},
		{
			name:   "remove . when it is absent removes nothing else",
			has:    []string{"bug", "security"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{".", ".."}},
			want:   []string{"bug", "security"},
			stats:  map[string]int{"issues/remove-label": 2, "issues/list-labels-on-issue": 2},
		},
		{
			name:   "add a label present in another case keeps one",
			has:    []string{"Security"},
			effect: model.Effect{Kind: model.EffectAddLabel, Labels: []string{"security"}},
			want:   []string{"Security"},
			stats:  map[string]int{"issues/add-labels": 1},
		},
		{
			name:   "remove names that are not path-safe",
			has:    []string{"bug", "needs/triage", "50% done", "a?b#c"},
			effect: model.Effect{Kind: model.EffectRemoveLabel, Labels: []string{"needs/triage", "50% done", "a?b#c"}},
			want:   []string{"bug"},
			stats:  map[string]int{"issues/remove-label": 3},
		},
		{
			name:    "add refused",
			has:     []string{"bug"},
			effect:  model.Effect{Kind: model.EffectAddLabel, Labels: []string{"automerge"}, Number: 99},
			want:    []string{"bug"},
			wantErr: "adding labels refused (404): Not Found",
			stats:   map[string]int{"issues/add-labels": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			openPR(fake, tt.has...)
			e := tt.effect
			e.Key = "k"
			if e.Number == 0 {
				e.Number = 7
			}
			fake.ResetStats()
			o := c.Perform(t.Context(), e)
			assert.Equal(t, model.Outcome{Key: "k", Err: tt.wantErr}, o)
			assert.Equal(t, tt.want, fake.PR(repoName, 7).Labels)
			assert.Equal(t, tt.stats, fake.Stats())
			assertDocumented(t, fake)
		})
	}
}

func TestPerformComment(t *testing.T) {
	fake, c := setup(t)
	openPR(fake)
	fake.SetFile(repoName, "main", configPath, "version: 1\n")
	const key = "auto-merge/7/1/thank/1/comment"
	o := c.Perform(t.Context(), model.Effect{Key: key, Kind: model.EffectComment, Number: 7, Body: "Merged by the pipeline."})
	assert.Equal(t, model.Outcome{Key: key}, o)
	comments := fake.Comments(repoName, 7)
	require.Len(t, comments, 1)
	assert.Equal(t, ghfake.BotLogin, comments[0].Author)
	assert.Equal(t, "Merged by the pipeline.\n\n<!-- pipeline-action:effect "+key+" -->", comments[0].Body)
	assert.Equal(t, map[string]int{"issues/create-comment": 1}, fake.Stats())

	// The comment itself says the effect is done; a copy of its marker in someone
	// else's comment does not.
	fake.Comment(repoName, 7, "mallory", "<!-- pipeline-action:effect auto-merge/7/1/other/1/comment -->")
	snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, []string{key}, snap.Facts.PR.Posted)

	t.Run("refused", func(t *testing.T) {
		fake.FailNext("issues/create-comment", 403, "Resource not accessible by integration")
		o := c.Perform(t.Context(), model.Effect{Key: "k2", Kind: model.EffectComment, Number: 7, Body: "x"})
		assert.Equal(t, model.Outcome{Key: "k2", Err: "comment refused (403): Resource not accessible by integration", Permanent: true}, o)
		assert.Len(t, fake.Comments(repoName, 7), 2, "nothing was posted")
	})
}

func TestPerformUnsupported(t *testing.T) {
	fake, c := setup(t)
	o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: "wake_agent", Number: 7})
	assert.Equal(t, model.Outcome{Key: "k", Err: `not supported yet: effect "wake_agent"`, Permanent: true}, o)
	assert.Empty(t, fake.Stats(), "nothing sent")
}

// TestComments covers the state comment store's backend: create, then edit in place.
func TestComments(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	openPR(fake)
	id, err := c.CreateComment(ctx, 7, "first")
	require.NoError(t, err)
	require.NotZero(t, id)

	require.NoError(t, c.UpdateComment(ctx, id, "second"))
	comments := fake.Comments(repoName, 7)
	require.Len(t, comments, 1, "edited, not added")
	assert.Equal(t, id, comments[0].ID)
	assert.Equal(t, "second", comments[0].Body)
	assert.Equal(t, ghfake.BotLogin, comments[0].Author)

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	require.Len(t, snap.Comments, 1)
	assert.Equal(t, "second", snap.Comments[0].Body, "the next read sees the edit")
	assert.True(t, snap.Comments[0].ViewerDidAuthor)

	err = c.UpdateComment(ctx, id+1000, "third")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "updating comment")

	_, err = c.CreateComment(ctx, 99, "on nothing")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "commenting on acme/widgets#99: ")

	assert.Equal(t, map[string]int{"issues/create-comment": 2, "issues/update-comment": 2, "graphql": 1}, fake.Stats())
	assert.Empty(t, fake.Unexpected(), "every call was a documented operation")
	assertDocumented(t, fake)
}

// TestRemoveLabelRawPath checks, on a loopback server that records the request line as sent,
// that a label name is one escaped path segment: "." and ".." do not resolve to another URL
// (".../labels/." would be ".../labels", which removes every label).
func TestRemoveLabelRawPath(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.RequestURI)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("[]"))
	}))
	defer srv.Close()
	c, err := ghapi.New(ghapi.Options{Token: "t", RESTURL: srv.URL + "/api/v3", GraphQLURL: srv.URL + "/api/graphql", Repository: repoName})
	require.NoError(t, err)
	const base = "DELETE /api/v3/repos/acme/widgets/issues/7/labels/"
	tests := []struct{ label, want string }{
		{".", base + "%2E"},
		{"..", base + "%2E%2E"},
		{"...", base + "%2E%2E%2E"},
		{"../../../pulls/7/merge", base + "..%2F..%2F..%2Fpulls%2F7%2Fmerge"},
		{"a/b", base + "a%2Fb"},
		{"needs review", base + "needs%20review"},
		{"50% done?", base + "50%25%20done%3F"},
		{".hidden", base + ".hidden"},
		{"WIP", base + "WIP"},
	}
	for _, tt := range tests {
		got = nil
		require.NoError(t, c.RemoveLabel(t.Context(), 7, tt.label), tt.label)
		assert.Equal(t, []string{tt.want}, got, tt.label)
	}
	got = nil
	assert.ErrorContains(t, c.RemoveLabel(t.Context(), 7, ""), "the label name is empty")
	assert.Empty(t, got, "an empty name sends nothing")
}

// TestRemoveLabelNotFound checks that a 404 counts as done only when the label is really gone.
func TestRemoveLabelNotFound(t *testing.T) {
	remove := model.Effect{Key: "k", Number: 7, Kind: model.EffectRemoveLabel, Labels: []string{"wip"}}
	t.Run("a 404 while the label is still there fails", func(t *testing.T) {
		fake, c := setup(t)
		openPR(fake, "WIP")
		fake.FailNext("issues/remove-label", 404, "Not Found")
		o := c.Perform(t.Context(), remove)
		assert.Equal(t, "removing labels refused (404): Not Found", o.Err)
		assert.False(t, o.Permanent, "a later event tries again")
		assert.Equal(t, []string{"WIP"}, fake.PR(repoName, 7).Labels)
	})
	t.Run("a 404 whose confirmation cannot be read fails", func(t *testing.T) {
		fake, c := setup(t)
		openPR(fake, "bug")
		fake.FailNext("issues/list-labels-on-issue", 502, "Bad Gateway")
		o := c.Perform(t.Context(), remove)
		assert.Equal(t, "removing labels refused (404): Label does not exist", o.Err)
		err := c.RemoveLabel(t.Context(), 7, "wip")
		require.NoError(t, err, "once the labels can be read, the absent label is done")
	})
	t.Run("a 404 for a label that is gone is done", func(t *testing.T) {
		fake, c := setup(t)
		openPR(fake, "bug")
		assert.Equal(t, model.Outcome{Key: "k"}, c.Perform(t.Context(), remove))
		assert.Equal(t, []string{"bug"}, fake.PR(repoName, 7).Labels)
		assertDocumented(t, fake)
	})
}
