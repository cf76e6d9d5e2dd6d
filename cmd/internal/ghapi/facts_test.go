package ghapi_test

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// TestSnapshot reads a pull request with everything the engine looks at, and checks that the
// adapter turns GitHub's answer into facts in one GraphQL request and no REST request.
func TestSnapshot(t *testing.T) {
	ctx := t.Context()
	w := newSnapshotWorld(t)
	fake, c, head, firstHead := w.fake, w.c, w.head, w.firstHead

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)

	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats(), "one GraphQL query, no REST call")
	assert.Equal(t, map[string]int{"graphql": 1}, c.Calls())

	assert.Equal(t, ghfake.BotLogin, snap.Viewer)
	assert.Equal(t, "main", snap.DefaultBranch)
	require.NotNil(t, snap.Config)
	assert.Equal(t, &ghapi.Config{ID: w.oid, Files: []ghapi.ConfigFile{{Path: configPath, Blob: ghapi.Blob{OID: w.oid, Text: snapshotConfig}}}},
		snap.Config, "the config on the default branch, identified by its blob as before directories were read")

	require.NotNil(t, snap.Facts)
	assert.Equal(t, repoName, snap.Facts.Repo)
	assert.Equal(t, "main", snap.Facts.DefaultBranch)
	assert.Equal(t, "github-actions[bot]", snap.Facts.Viewer, "the viewer as GitHub spells an installation token's")
	pr := snap.Facts.PR
	require.NotNil(t, pr)
	assert.Equal(t, 7, pr.Number)
	assert.Equal(t, "Add login", pr.Title)
	assert.Equal(t, model.PROpen, pr.State)
	assert.False(t, pr.Draft)
	assert.Equal(t, "dev", pr.Author)
	assert.Equal(t, "main", pr.BaseRef)
	assert.Equal(t, "feat/login", pr.HeadRef)
	assert.Equal(t, head, pr.HeadSHA)
	assert.Equal(t, model.Mergeable, pr.Mergeable)
	assert.ElementsMatch(t, []string{"automerge", "needs review"}, pr.Labels)

	assert.Equal(t, []model.Review{
		{Author: "alice", State: model.ReviewApproved, Body: "lgtm", CommitSHA: firstHead, SubmittedAt: clock, CanPush: true},
		{Author: "bob", State: model.ReviewCommented, Body: "a question", CommitSHA: head, SubmittedAt: clock, CanPush: false},
		{Author: "carol", State: model.ReviewChangesRequested, Body: "no", CommitSHA: head, SubmittedAt: clock, CanPush: true},
	}, pr.Reviews)

	assertSnapshotChecks(t, pr.Checks)

	assert.Equal(t, []state.Comment{
		{ID: w.botID, Author: ghfake.BotLogin, ViewerDidAuthor: true, Body: "<!-- pipeline-action:state -->"},
		{ID: w.forgedID, Author: "alice", ViewerDidAuthor: false, Body: "<!-- pipeline-action:state --> forged"},
	}, snap.Comments)

	assertDocumented(t, fake)
}

// snapshotConfig is the config on main in the world of TestSnapshot.
const snapshotConfig = "version: 1\npipelines: {}\n"

// snapshotWorld is the pull request TestSnapshot reads: #7 pushed to once, with reviews,
// check runs and commit statuses on its head, and two comments with the state marker.
type snapshotWorld struct {
	fake            *ghfake.Server
	c               *ghapi.Client
	oid             string // the config's blob on main
	firstHead, head string
	botID, forgedID int64 // the bot's state comment and one forged by alice
}

// newSnapshotWorld builds the world of TestSnapshot and resets the fake's counters.
func newSnapshotWorld(t *testing.T) snapshotWorld {
	fake, c := setupAtClock(t)
	fake.AddUser("alice", "write")
	fake.AddUser("bob", "read")
	fake.AddUser("carol", "admin")
	oid := fake.SetFile(repoName, "main", configPath, snapshotConfig)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login", Title: "Add login",
		Labels: []string{"automerge", "needs review"}, Files: []string{"src/auth/login.go"}})
	// The PR rewrites the rules on its own branch: the snapshot must not see that.
	fake.SetFile(repoName, "feat/login", configPath, "version: 1\npipelines: {evil: {}}\n")

	firstHead := fake.PR(repoName, 7).HeadSHA
	fake.Review(repoName, 7, "alice", "approved", "lgtm")
	fake.CompleteCheck(repoName, 7, "old-build", "failure", "") // on the first head: not a fact any more
	fake.Push(repoName, 7)
	head := fake.PR(repoName, 7).HeadSHA
	require.NotEqual(t, firstHead, head)
	fake.Review(repoName, 7, "bob", "commented", "a question")
	fake.Review(repoName, 7, "carol", "changes_requested", "no")

	fake.CompleteCheck(repoName, 7, "test", "success", "")
	fake.CompleteCheck(repoName, 7, "lint", "failure", "lint-app")
	fake.CompleteCheck(repoName, 7, "docs", "neutral", "")
	fake.CompleteCheck(repoName, 7, "e2e", "skipped", "")
	fake.CompleteCheck(repoName, 7, "bench", "cancelled", "")
	fake.CompleteCheck(repoName, 7, "slow", "timed_out", "")
	fake.SetStatus(repoName, 7, "ci/legacy", "pending")
	fake.SetStatus(repoName, 7, "ci/deploy", "success")
	fake.SetStatus(repoName, 7, "ci/security", "failure")
	fake.SetStatus(repoName, 7, "ci/broken", "error")
	fake.SetStatus(repoName, 7, "ci/flaky", "failure")
	fake.SetStatus(repoName, 7, "ci/flaky", "success") // the latest status of a context counts

	_, botID := fake.Comment(repoName, 7, ghfake.BotLogin, "<!-- pipeline-action:state -->")
	_, forgedID := fake.Comment(repoName, 7, "alice", "<!-- pipeline-action:state --> forged")
	fake.ResetStats()
	return snapshotWorld{fake: fake, c: c, oid: oid, firstHead: firstHead, head: head, botID: botID, forgedID: forgedID}
}

// assertSnapshotChecks checks the check runs and statuses TestSnapshot reads on the head.
func assertSnapshotChecks(t *testing.T, got []model.CheckResult) {
	// Check runs carry their app and suite (node ids); each workflow's run is its own suite of
	// the Actions app, and lint-app is another app.
	apps, suites := map[string]string{}, map[string]bool{}
	checks := make([]model.CheckResult, len(got))
	for i, cr := range got {
		if cr.Kind == "check_run" {
			require.NotEmpty(t, cr.App, cr.Name)
			require.NotEmpty(t, cr.Suite, cr.Name)
			assert.False(t, suites[cr.Suite], "%s shares a suite", cr.Name)
			suites[cr.Suite] = true
			apps[cr.Name] = cr.App
		}
		// A workflow's check names its run, whose id is past what GraphQL's Int holds.
		assert.Equal(t, cr.Workflow != "", cr.RunID > 1<<31, "%s: run %d", cr.Name, cr.RunID)
		cr.App, cr.Suite, cr.RunID = "", "", 0
		checks[i] = cr
	}
	assert.Equal(t, apps["test"], apps["slow"], "one app owns every workflow's suite")
	assert.NotEqual(t, apps["test"], apps["lint"], "lint-app is another app")
	assert.ElementsMatch(t, []model.CheckResult{
		{Name: "test", Kind: "check_run", State: model.CheckSuccess, Conclusion: "SUCCESS", Workflow: "test"},
		{Name: "lint", Kind: "check_run", State: model.CheckFailure, Conclusion: "FAILURE"},
		{Name: "docs", Kind: "check_run", State: model.CheckSuccess, Conclusion: "NEUTRAL", Workflow: "docs"},
		{Name: "e2e", Kind: "check_run", State: model.CheckSuccess, Conclusion: "SKIPPED", Workflow: "e2e"},
		{Name: "bench", Kind: "check_run", State: model.CheckFailure, Conclusion: "CANCELLED", Workflow: "bench"},
		{Name: "slow", Kind: "check_run", State: model.CheckFailure, Conclusion: "TIMED_OUT", Workflow: "slow"},
		{Name: "ci/legacy", Kind: "status", State: model.CheckPending, Conclusion: "PENDING"},
		{Name: "ci/deploy", Kind: "status", State: model.CheckSuccess, Conclusion: "SUCCESS"},
		{Name: "ci/security", Kind: "status", State: model.CheckFailure, Conclusion: "FAILURE"},
		{Name: "ci/broken", Kind: "status", State: model.CheckFailure, Conclusion: "ERROR"},
		{Name: "ci/flaky", Kind: "status", State: model.CheckSuccess, Conclusion: "SUCCESS"},
	}, checks)
}

// TestSnapshotCheckIdentity checks that check runs of the same name are told apart by app and
// suite, as GitHub tells them: a re-run lands in the suite of the run it repeats, another app or
// another workflow is another suite.
func TestSnapshotCheckIdentity(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	fake.CompleteCheck(repoName, 7, "build", "failure", "app-one")
	fake.CompleteCheck(repoName, 7, "build", "success", "app-one") // a re-run: replaces the failure
	fake.CompleteCheck(repoName, 7, "build", "failure", "app-two")
	fake.CompleteJob(repoName, 7, "ci", "build", "success")
	fake.CompleteJob(repoName, 7, "ci", "lint", "success")
	fake.CompleteJob(repoName, 7, "release", "build", "failure")
	fake.SetStatus(repoName, 7, "build", "success")

	snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	type run struct{ app, suite, workflow, state string }
	got := map[string][]run{}
	for _, cr := range snap.Facts.PR.Checks {
		got[cr.Kind+" "+cr.Name] = append(got[cr.Kind+" "+cr.Name], run{cr.App, cr.Suite, cr.Workflow, cr.State})
	}
	require.Len(t, got["check_run build"], 4, "one build per app and suite: %v", got)
	require.Len(t, got["check_run lint"], 1)
	assert.Equal(t, []run{{state: model.CheckSuccess}}, got["status build"])
	one, two, ci, release := got["check_run build"][0], got["check_run build"][1], got["check_run build"][2], got["check_run build"][3]
	lint := got["check_run lint"][0]
	assert.Equal(t, model.CheckSuccess, one.state, "the re-run replaced the failure")
	assert.Equal(t, model.CheckFailure, two.state)
	assert.Equal(t, []string{"", "", "ci", "release"}, []string{one.workflow, two.workflow, ci.workflow, release.workflow})
	assert.Equal(t, "ci", lint.workflow)
	assert.NotEqual(t, one.app, two.app, "two apps")
	assert.NotEqual(t, one.app, ci.app)
	assert.Equal(t, ci.app, release.app, "Actions owns every workflow's suite")
	assert.Equal(t, ci.suite, lint.suite, "the jobs of one workflow run share its suite")
	assert.NotEqual(t, ci.suite, release.suite, "each workflow run is its own suite")
	assert.NotEqual(t, one.suite, two.suite)
	assertDocumented(t, fake)
}

// TestSnapshotConfig checks that the config is read from the default branch only.
func TestSnapshotConfig(t *testing.T) {
	const onMain, onHead = "version: 1\n# main\n", "version: 1\n# head\n"
	tests := []struct {
		name   string
		files  map[string]string // branch → config content
		branch string            // the default branch the event names
		want   string            // config text; "" means no config
	}{
		{name: "on the default branch", files: map[string]string{"main": onMain}, branch: "main", want: onMain},
		{name: "on both: the default branch wins", files: map[string]string{"main": onMain, "feat/x": onHead}, branch: "main", want: onMain},
		{name: "only on the PR head: none", files: map[string]string{"feat/x": onHead}, branch: "main"},
		{name: "only on another branch: none", files: map[string]string{"release": onHead}, branch: "main"},
		{name: "absent everywhere", branch: "main"},
		{name: "empty file", files: map[string]string{"main": ""}, branch: "main", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			fake.OpenPR(repoName, ghfake.PROptions{Number: 3, Author: "dev", Head: "feat/x"})
			oids := map[string]string{}
			for _, b := range []string{"main", "feat/x", "release"} {
				if content, ok := tt.files[b]; ok {
					oids[b] = fake.SetFile(repoName, b, configPath, content)
				}
			}
			fake.ResetStats()
			snap, err := c.Snapshot(t.Context(), 3, tt.branch, configPath)
			require.NoError(t, err)
			assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
			if _, ok := tt.files["main"]; !ok {
				assert.Nil(t, snap.Config, "no config on the default branch")
				return
			}
			require.NotNil(t, snap.Config)
			require.Len(t, snap.Config.Files, 1)
			assert.Equal(t, tt.want, snap.Config.Files[0].Text)
			assert.Equal(t, oids["main"], snap.Config.Files[0].OID)
			assert.Equal(t, oids["main"], snap.Config.ID)
			assert.False(t, snap.Config.Files[0].Truncated)
		})
	}
}

// TestSnapshotState checks the state, draft and mergeability of a pull request in its facts.
func TestSnapshotState(t *testing.T) {
	tests := []struct {
		name      string
		draft     bool
		change    func(t *testing.T, fake *ghfake.Server, c *ghapi.Client)
		state     string
		mergeable string
	}{
		{name: "open", state: model.PROpen, mergeable: model.Mergeable},
		{name: "draft", draft: true, state: model.PROpen, mergeable: model.Mergeable},
		{
			name: "conflicting",
			change: func(t *testing.T, fake *ghfake.Server, _ *ghapi.Client) {
				fake.SetMergeable(repoName, 5, "conflicting")
			},
			state: model.PROpen, mergeable: model.Conflicting,
		},
		{
			name: "closed",
			change: func(t *testing.T, fake *ghfake.Server, _ *ghapi.Client) {
				fake.ClosePR(repoName, 5)
			},
			state: model.PRClosed, mergeable: model.Mergeable,
		},
		{
			name: "merged",
			change: func(t *testing.T, fake *ghfake.Server, c *ghapi.Client) {
				o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectMerge, Number: 5,
					SHA: fake.PR(repoName, 5).HeadSHA, Method: "merge"})
				require.Empty(t, o.Err)
			},
			state: model.PRMerged, mergeable: model.Mergeable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setupWithConfig(t, versionOnly)
			fake.OpenPR(repoName, ghfake.PROptions{Number: 5, Author: "dev", Draft: tt.draft})
			if tt.change != nil {
				tt.change(t, fake, c)
			}
			snap, err := c.Snapshot(t.Context(), 5, "main", configPath)
			require.NoError(t, err)
			require.NotNil(t, snap.Facts.PR)
			assert.Equal(t, tt.state, snap.Facts.PR.State)
			assert.Equal(t, tt.draft, snap.Facts.PR.Draft)
			assert.Equal(t, tt.mergeable, snap.Facts.PR.Mergeable)
			assert.Empty(t, snap.Facts.PR.Checks, "no check reported")
			assert.Empty(t, snap.Facts.PR.Reviews, "no review given")
		})
	}
}

// TestSnapshotErrors checks the answers that are not a pull request's facts.
func TestSnapshotErrors(t *testing.T) {
	t.Run("unknown default branch", func(t *testing.T) {
		fake, c := setup(t)
		_, err := c.Snapshot(t.Context(), 1, "", configPath)
		require.EqualError(t, err, "reading acme/widgets#1: the default branch is unknown")
		assert.Empty(t, fake.Stats(), "no request made")
	})
	t.Run("GraphQL refused", func(t *testing.T) {
		fake, c := setup(t)
		fake.OpenPR(repoName, ghfake.PROptions{Number: 1, Author: "dev"})
		fake.FailNext("graphql", 502, "Bad Gateway")
		_, err := c.Snapshot(t.Context(), 1, "main", configPath)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "reading acme/widgets#1: ")
	})
	t.Run("no such number", func(t *testing.T) {
		_, c := setup(t)
		_, err := c.Snapshot(t.Context(), 99, "main", configPath)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "reading acme/widgets#99: ")
	})
}

// TestSnapshotIssue checks that the number of a plain issue is refused as GitHub refuses it
// (pullRequest(number:) does not resolve issues): the run path routes issue events away
// before it reads anything.
func TestSnapshotIssue(t *testing.T) {
	fake, c := setupWithConfig(t, versionOnly)
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 4, Author: "dev"})
	fake.ResetStats()
	_, err := c.Snapshot(t.Context(), 4, "main", configPath)
	require.EqualError(t, err, "reading acme/widgets#4: Could not resolve to a PullRequest with the number of 4.")
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
}

func TestOpenPRsForCommit(t *testing.T) {
	head := func(n int) func(f *ghfake.Server) string {
		return func(f *ghfake.Server) string { return f.PR(repoName, n).HeadSHA }
	}
	tests := []struct {
		name string
		sha  func(fake *ghfake.Server) string
		head ghapi.CommitHead
		want []int
	}{
		{name: "the head of an open PR", sha: head(7), want: []int{7}},
		{name: "a commit pushed over", sha: head(8)},
		{name: "the head of a closed PR", sha: head(9)},
		{name: "an unknown commit", sha: func(*ghfake.Server) string { return "6113728f27ae82c7b1a177c8d03f9e96e0adf246" }},
		// GitHub associates a fork's head commit with no PR of the base: found by branch.
		{name: "a fork's head by its repository and branch", sha: head(10), head: ghapi.CommitHead{Repo: "eve/widgets", Branch: "feature"}, want: []int{10}},
		{name: "a fork's head named by another fork", sha: head(10), head: ghapi.CommitHead{Repo: "mallory/widgets", Branch: "feature"}},
		{name: "a fork's head on another branch", sha: head(10), head: ghapi.CommitHead{Repo: "eve/widgets", Branch: "other"}},
		{name: "a fork's head, no branch named (a status)", sha: head(10), want: []int{10}},
		{name: "the other fork's head of the same branch name", sha: head(11), head: ghapi.CommitHead{Repo: "mallory/widgets", Branch: "feature"}, want: []int{11}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
			fake.OpenPR(repoName, ghfake.PROptions{Number: 8, Author: "dev"})
			fake.OpenPR(repoName, ghfake.PROptions{Number: 9, Author: "dev"})
			fake.OpenPR(repoName, ghfake.PROptions{Number: 10, Author: "eve", Fork: "eve", Head: "feature"})
			fake.OpenPR(repoName, ghfake.PROptions{Number: 11, Author: "mallory", Fork: "mallory", Head: "feature"})
			fake.ClosePR(repoName, 9)
			sha := tt.sha(fake)
			if tt.name == "a commit pushed over" {
				fake.Push(repoName, 8) // sha is still one of #8's commits, no longer its head
			}
			fake.ResetStats()
			got, err := c.OpenPRsForCommit(t.Context(), sha, tt.head)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
			assertDocumented(t, fake)
		})
	}
}
