package ghapi_test

import (
	"cmp"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPerformMergeClassifiesRefusals(t *testing.T) {
	tests := []struct {
		name     string
		p        ghfake.Protection
		unknown  int
		method   string
		escalate bool
		err      []string
	}{
		{name: "method", p: ghfake.Protection{MergeMethods: []string{"merge"}}, escalate: true,
			err: []string{"Squash merges are not allowed on this repository.", "config.method"}},
		{name: "reviews", p: ghfake.Protection{RequiredReviews: 1}, escalate: true,
			err: []string{"At least 1 approving review is required by reviewers with write access.", "add a gate"}},
		{name: "check never reported", p: ghfake.Protection{RequiredChecks: []string{"test"}}, escalate: true,
			err: []string{`Required status check "test" is expected.`, "ci_passed"}},
		{name: "linear history", p: ghfake.Protection{LinearHistory: true}, method: "merge", escalate: true,
			err: []string{"Merge commits are not allowed on this branch.", "squash or rebase"}},
		{name: "push restrictions", p: ghfake.Protection{PushAllowances: []string{"alice"}}, escalate: true,
			err: []string{"You're not authorized to push to this branch.", "restrictions"}},
		{name: "mergeability not computed", unknown: 1,
			err: []string{"merge refused (405): Pull Request is not mergeable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			head := openPR(fake)
			fake.SetProtection(repoName, "main", tt.p)
			fake.SetUnknownReads(repoName, tt.unknown)
			o := c.Perform(t.Context(), model.Effect{Key: "r1/merge/1/merge_pr", Kind: model.EffectMerge,
				Number: 7, SHA: head, Method: cmp.Or(tt.method, "squash")})
			for _, s := range tt.err {
				assert.Contains(t, o.Err, s)
			}
			assert.Equal(t, tt.escalate, o.Escalate)
			assert.False(t, o.Permanent, "a 405 is never the stage's on_failure")
			assert.False(t, fake.PR(repoName, 7).Merged)
		})
	}
}

// A base that takes pull requests through its merge queue refuses the merge: the pull request
// is enqueued at the head the gates hold on instead, and a dequeue takes it out; a head that
// moved is refused, and nothing is merged by the action itself.
func TestPerformMergeEnqueues(t *testing.T) {
	fake, c := setup(t)
	head := openPR(fake)
	fake.SetProtection(repoName, "main", ghfake.Protection{MergeQueue: true, RequiredChecks: []string{"test"}})
	eff := model.Effect{Key: "r1/merge/1/merge_pr", Kind: model.EffectMerge, Number: 7, SHA: "0000000000000000000000000000000000000000", Method: "squash"}
	o := c.Perform(t.Context(), eff)
	assert.Contains(t, o.Err, "Head branch was modified", "a head that moved is neither merged nor queued")
	assert.False(t, o.Queued)

	eff.SHA = head
	assert.Equal(t, model.Outcome{Key: eff.Key, Queued: true}, c.Perform(t.Context(), eff))
	assert.False(t, fake.PR(repoName, 7).Merged, "GitHub's queue merges it, not the action")
	snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	assert.True(t, snap.Facts.PR.InMergeQueue)
	assert.Equal(t, 1, snap.Facts.PR.QueuePosition)

	assert.Equal(t, model.Outcome{Key: "r1/merge/1/dequeue_pr"}, c.Perform(t.Context(), model.Effect{Key: "r1/merge/1/dequeue_pr", Kind: model.EffectDequeue, Number: 7}))
	snap, err = c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	assert.False(t, snap.Facts.PR.InMergeQueue)
	assertDocumented(t, fake)
}

// TestPerformUpdateBranch: a merge (REST) or a rebase (GraphQL) brings the head up to date,
// at the head the effect expects only.
func TestPerformUpdateBranch(t *testing.T) {
	for _, method := range []string{"", lang.UpdateRebase} {
		t.Run("method "+method, func(t *testing.T) {
			fake, c := setup(t)
			head := openPR(fake)
			eff := model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7, SHA: head, Method: method}
			// Up to date already: done.
			assert.Equal(t, model.Outcome{Key: eff.Key}, c.Perform(t.Context(), eff))
			assert.Equal(t, head, fake.PR(repoName, 7).HeadSHA)

			fake.SetFile(repoName, "main", "NEWS.md", "news")
			assert.Equal(t, model.Outcome{Key: eff.Key}, c.Perform(t.Context(), eff))
			moved := fake.PR(repoName, 7).HeadSHA
			require.NotEqual(t, head, moved, "GitHub brought main into the head")
			behind, err := c.BehindBy(t.Context(), "main", moved)
			require.NoError(t, err)
			assert.Zero(t, behind)
			rest, err := github.NewClient(nil).WithAuthToken(fake.BotToken()).WithEnterpriseURLs(fake.URL+"/api/v3/", fake.URL+"/api/v3/")
			require.NoError(t, err)
			cmp, _, err := rest.Repositories.CompareCommits(t.Context(), "acme", "widgets", "main", moved, nil)
			require.NoError(t, err)
			var shas []string
			for _, cm := range cmp.Commits {
				shas = append(shas, cm.GetSHA())
				if method == lang.UpdateRebase {
					assert.Len(t, cm.Parents, 1, "a rebase leaves no merge commit")
				}
			}
			if method == lang.UpdateRebase {
				assert.NotContains(t, shas, head, "the pull request's commit is made anew on main")
				assert.Equal(t, "dev", cmp.Commits[len(cmp.Commits)-1].GetCommit().GetAuthor().GetName(), "its author kept")
			} else {
				assert.Contains(t, shas, head, "a merge keeps the pull request's commits")
			}

			// The head the effect expects moved: not permanent, the next event sees the new head.
			fake.SetFile(repoName, "main", "NEWS.md", "more news")
			o := c.Perform(t.Context(), eff)
			assert.Contains(t, o.Err, "expected head sha didn't match current head ref.")
			assert.False(t, o.Permanent)
			assert.True(t, o.HeadMoved)
			assert.Equal(t, moved, fake.PR(repoName, 7).HeadSHA)
			assertDocumented(t, fake)
		})
	}
}

func TestSnapshotReadsMergeState(t *testing.T) {
	tests := []struct {
		name      string
		change    func(fake *ghfake.Server)
		mergeable string
		state     string
	}{
		{"clean", func(*ghfake.Server) {}, model.Mergeable, "CLEAN"},
		{"not computed yet", func(f *ghfake.Server) { f.SetUnknownReads(repoName, 1) }, model.Unknown, "UNKNOWN"},
		{"blocked", func(f *ghfake.Server) { f.SetProtection(repoName, "main", ghfake.Protection{RequiredReviews: 1}) }, model.Mergeable, "BLOCKED"},
		{"behind", func(f *ghfake.Server) {
			f.SetProtection(repoName, "main", ghfake.Protection{Strict: true})
			f.SetFile(repoName, "main", "NEWS.md", "news")
		}, model.Mergeable, "BEHIND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setupWithConfig(t, versionOnly)
			fake.OpenPR(repoName, ghfake.PROptions{Number: 5, Author: "dev"})
			tt.change(fake)
			snap, err := c.Snapshot(t.Context(), 5, "main", configPath)
			require.NoError(t, err)
			assert.Equal(t, tt.mergeable, snap.Facts.PR.Mergeable)
			assert.Equal(t, tt.state, snap.Facts.PR.MergeState)
		})
	}
}

// TestPerformUpdateBranchRefusals: a refused update of a fork's branch and one that would
// bring a workflow change escalate with the cause, not with a scope the token has.
func TestPerformUpdateBranchRefusals(t *testing.T) {
	for _, method := range []string{"", lang.UpdateRebase} {
		t.Run("method "+method, func(t *testing.T) { updateRefusals(t, method) })
	}
}

func updateRefusals(t *testing.T, method string) {
	t.Run("fork without maintainer edits", func(t *testing.T) {
		fake, c := setup(t)
		fake.AddBranch(repoName, "develop")
		fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "someone", Head: "develop", Fork: "someone", Files: []string{"README.md"}, NoMaintainerEdits: true})
		fake.SetFile(repoName, "main", "NEWS.md", "news")
		o := c.Perform(t.Context(), model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7, SHA: fake.PR(repoName, 7).HeadSHA, Method: method})
		assert.True(t, o.Escalate, o.Err)
		assert.Contains(t, o.Err, "its branch lives in a fork whose author does not allow edits by maintainers")
		assertDocumented(t, fake)
	})
	t.Run("fork", func(t *testing.T) {
		fake, c := setup(t)
		fake.AddBranch(repoName, "develop")
		fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "someone", Head: "develop", Fork: "someone", Files: []string{"README.md"}})
		fake.SetFile(repoName, "main", "NEWS.md", "news")
		o := c.Perform(t.Context(), model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7, SHA: fake.PR(repoName, 7).HeadSHA, Method: method})
		assert.True(t, o.Escalate)
		assert.Contains(t, o.Err, "its branch lives in the fork someone/widgets, which the action's token may not push to")
		assert.NotContains(t, o.Err, "pull-requests", "not a scope the workflow grants")
		assertDocumented(t, fake)
	})
	t.Run("workflows", func(t *testing.T) {
		fake, c := setup(t)
		head := openPR(fake)
		fake.SetFile(repoName, "main", ".github/workflows/ci.yml", "on: push\n")
		o := c.Perform(t.Context(), model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7, SHA: head, Method: method})
		assert.True(t, o.Escalate)
		assert.Contains(t, o.Err, "the update would bring the base branch's change to .github/workflows/ci.yml into it")
		assert.NotContains(t, o.Err, "the pull request changes", "the pull request changes no workflow")
		assert.Equal(t, head, fake.PR(repoName, 7).HeadSHA)
	})
}

// TestPerformRebaseConflict: a rebase GitHub refuses for a conflict is refused again on every
// event: permanent, said in GitHub's words.
func TestPerformRebaseConflict(t *testing.T) {
	fake, c := setup(t)
	head := openPR(fake)
	fake.SetFile(repoName, "main", "NEWS.md", "news")
	fake.SetMergeable(repoName, 7, "conflicting")
	o := c.Perform(t.Context(), model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7,
		SHA: head, Method: lang.UpdateRebase})
	assert.True(t, o.Permanent, o.Err)
	assert.False(t, o.Escalate, "not the token's lack of a right")
	assert.Contains(t, o.Err, "merge conflict between base and head")
	assert.Equal(t, head, fake.PR(repoName, 7).HeadSHA)
}
