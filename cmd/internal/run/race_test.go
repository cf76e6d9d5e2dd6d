package run

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// raceConfig: every labeled event starts a run of "count" that completes at once (the PR
// carries "go"; count comes first, so no effect of the others holds it back), so each
// delivery leaves exactly one run, keyed by its delivery; "hello"
// starts once per PR and waits for an approval, so it stays open (in index.json);
// "greet" posts one comment per PR and "ship" merges a PR labeled ship: effects that
// must be performed once, however many invocations decide them at the same moment.
const raceConfig = `version: 1
pipelines:
  count:
    trigger: {event: pull_request.labeled, conditions: {base_branch: main}}
    stages:
      - id: done
        type: gate
        conditions:
          - {check: label_present, label: go}
        on_pass: complete
  hello:
    trigger: {event: pull_request.opened, conditions: {base_branch: main}}
    stages:
      - id: review
        type: gate
        conditions:
          - {check: human_approved, count: 1}
        on_pass: complete
  greet:
    trigger: {event: pull_request.opened, conditions: {base_branch: main}}
    stages:
      - {id: hi, type: action, action: comment, config: {body: "Welcome!"}}
  ship:
    trigger: {event: pull_request.labeled, conditions: {labels: [ship]}}
    stages:
      - {id: merge, type: action, action: merge_pr}
`

// N invocations of run at once, on the same pull request and on several, against one
// GitHub, each with its own token; the fake holds every first write until all have read,
// so they really race for the state branch. Afterwards each event is in its subject's
// state exactly once, no subject's file was lost, every subject has one state comment,
// and the index lists every open run.
func TestRunConcurrentInvocations(t *testing.T) {
	f := faketest.New(t)
	f.AddRepo("acme/widgets", "main")
	f.AddUser("dev", "write")
	f.SetFile("acme/widgets", "main", DefaultConfigPath, raceConfig)
	ds, labeled, prs := raceDeliveries(t, f)
	runAtOnce(t, f, ds)

	files := f.BranchFiles("acme/widgets", lang.DefaultStateBranch)
	require.NotNil(t, files, "the state branch exists")
	var open []string
	for _, pr := range prs {
		open = append(open, checkRaceSubject(t, f, files, pr, labeled[pr])...)
	}
	checkMergedOnce(t, f, files)

	var listed []string
	for _, p := range state.ShardFiles() {
		if text, ok := files[p]; ok {
			idx, err := state.DecodeIndex(text)
			require.NoError(t, err, p)
			for _, e := range idx.Runs {
				if !e.CommentClaim() { // the end of a claim to post a state comment, not a run
					listed = append(listed, e.Run)
				}
			}
		}
	}
	sort.Strings(open)
	sort.Strings(listed)
	assert.Equal(t, open, listed, "the index lists every open run, and only those")

	for _, c := range f.BranchLog("acme/widgets", lang.DefaultStateBranch) {
		if c.SHA == mustHead(t, f, "main") {
			break
		}
		assert.True(t, c.SignedByGitHub, c.Message)
		assert.Equal(t, ghfake.BotLogin, c.Author)
		// A commit that only claims the posting of the state comment, or lists or unlists the
		// end of such a claim, names no pipeline.
		assert.Regexp(t, `^pr-\d+(?: (hello|count|greet|ship): .*|: claim to post the state comment|: the state comment is left to the claim in flight, until \S+|: the state comment's claim is no longer a deadline) \(pull_request\.(opened|labeled) by dev\)`, c.Message)
	}
}

// raceDelivery is one event of the race and the workflow run that delivers it.
type raceDelivery struct {
	pr    int
	ev    ghfake.Event
	runID int
}

// raceDeliveries makes the events of the race: #1 to #4 opened and labeled (#1 eight
// times), #5 into develop labeled ship among others. It returns them, the delivery keys of
// the labeled events of #1 to #4, and those pull requests in order.
func raceDeliveries(t *testing.T, f *ghfake.Server) ([]raceDelivery, map[int][]string, []int) {
	var ds []raceDelivery
	labeled := map[int][]string{} // PR → the delivery keys of its labeled events
	id := 5000
	add := func(pr int, ev ghfake.Event) {
		id++
		ds = append(ds, raceDelivery{pr, ev, id})
		if ev.Name == "pull_request" && strings.Contains(string(ev.Payload), `"action":"labeled"`) {
			labeled[pr] = append(labeled[pr], "run-"+strconv.Itoa(id))
		}
	}
	prs := map[int]int{1: 8, 2: 2, 3: 2, 4: 2} // PR → labeled events
	for _, pr := range slices.Sorted(maps.Keys(prs)) {
		add(pr, f.OpenPR("acme/widgets", ghfake.PROptions{Number: pr, Author: "dev", Head: fmt.Sprintf("feat/%d", pr), Labels: []string{"go"}}))
	}
	for _, pr := range slices.Sorted(maps.Keys(prs)) {
		for i := 1; i <= prs[pr]; i++ {
			add(pr, f.Label("acme/widgets", pr, fmt.Sprintf("l%d", i), true))
		}
	}
	// #5, into develop (none of the pipelines above), is labeled ship three times over.
	f.AddBranch("acme/widgets", "develop")
	add(5, f.OpenPR("acme/widgets", ghfake.PROptions{Number: 5, Author: "dev", Base: "develop", Head: "feat/5"}))
	add(5, f.Label("acme/widgets", 5, "ship", true))
	add(5, f.Label("acme/widgets", 5, "x", true))
	add(5, f.Label("acme/widgets", 5, "y", true))
	labeled[5] = nil
	require.GreaterOrEqual(t, len(ds), 8)
	require.Len(t, labeled[1], 8, "eight events on one pull request")
	return ds, labeled, slices.Sorted(maps.Keys(prs))
}

// runAtOnce runs every delivery at once, each with its own token; the fake holds every
// first write until all have read. Every invocation must succeed, and some must have
// raced for the state branch.
func runAtOnce(t *testing.T, f *ghfake.Server, ds []raceDelivery) {
	dir := t.TempDir()
	codes, logs, read := atOnce(t, f, len(ds), func(i int, token string) map[string]string {
		return runtest.Job(t, f, dir, ds[i].runID, ds[i].ev, token)
	})
	assert.Equal(t, len(ds), read)
	conflicts, most := 0, 0
	for i := range ds {
		require.Equal(t, 0, codes[i], "invocation %d:\n%s", i, logs[i])
		n := strings.Count(logs[i], "moved since it was read")
		conflicts += n
		most = max(most, n)
	}
	assert.Positive(t, conflicts, "the invocations raced for the state branch")
	if os.Getenv("RACE_DEBUG") != "" {
		for i, d := range ds {
			t.Logf("#%d %d:\n%s", d.pr, d.runID, logs[i])
		}
		for _, c := range f.BranchLog("acme/widgets", lang.DefaultStateBranch) {
			t.Logf("commit %.7s %s", c.SHA, c.Message)
		}
	}
	t.Logf("%d invocations, %d conflicts (at most %d for one), %d commits on the state branch", len(ds), conflicts, most, len(f.BranchLog("acme/widgets", lang.DefaultStateBranch)))
	assert.Empty(t, f.Unexpected())
}

// checkRaceSubject checks the state of pr after the race, whose labeled events were
// delivered as labeled, and returns its open runs.
func checkRaceSubject(t *testing.T, f *ghfake.Server, files map[string]string, pr int, labeled []string) (open []string) {
	subject := fmt.Sprintf("acme/widgets#%d", pr)
	text, ok := files[state.SubjectFile(true, pr)]
	require.True(t, ok, "the state file of #%d is on the branch", pr)
	st, err := state.DecodeFile(text, subject)
	require.NoError(t, err)

	// Every labeled event's run, exactly once; hello once.
	var keys []string
	hello := 0
	for _, r := range st.Runs {
		switch r.Pipeline {
		case "count":
			keys = append(keys, r.TriggerKey)
			assert.Equal(t, model.RunCompleted, r.Status)
		case "hello":
			hello++
			assert.Equal(t, model.RunWaiting, r.Status)
			open = append(open, r.ID)
		}
	}
	for _, p := range st.Past {
		if p.Pipeline == "count" {
			keys = append(keys, p.TriggerKey)
		}
	}
	sort.Strings(keys)
	want := append([]string(nil), labeled...)
	sort.Strings(want)
	assert.Equal(t, want, keys, "#%d: one run per labeled event, none twice", pr)
	assert.Equal(t, 1, hello, "#%d: hello started once", pr)
	var ids []string
	for _, p := range st.Past {
		ids = append(ids, p.ID)
	}
	for _, r := range st.Runs {
		ids = append(ids, r.ID)
	}
	assert.Len(t, ids, len(want)+2, "the count runs, hello and greet")
	assert.Equal(t, len(ids), len(uniq(ids)), "#%d: run ids are unique: %v", pr, ids)
	archived := 0
	for p := range files {
		if strings.HasPrefix(p, fmt.Sprintf("archive/pr-%d/", pr)) {
			archived++
		}
	}
	assert.Equal(t, len(want)-1, archived, "#%d: every finished run but the newest archived", pr)
	checkOneStateComment(t, f, pr, st.Seq)
	return open
}

// checkOneStateComment: one state comment on pr, the action's, trusted and never ahead of
// the branch (seq); and greet's comment, once.
func checkOneStateComment(t *testing.T, f *ghfake.Server, pr, seq int) {
	var mine, greetings []ghfake.CommentView
	for _, c := range f.Comments("acme/widgets", pr) {
		switch {
		case c.Author != ghfake.BotLogin:
		case strings.HasPrefix(c.Body, "Welcome!"):
			greetings = append(greetings, c)
		default:
			mine = append(mine, c)
		}
	}
	assert.Len(t, greetings, 1, "#%d: greeted once", pr)
	require.Len(t, mine, 1, "#%d: one state comment", pr)
	cst, why, err := state.Check(trustedComment(mine[0]))
	require.NoError(t, err)
	require.Empty(t, why)
	assert.LessOrEqual(t, cst.Seq, seq, "the comment is the branch's view, never ahead of it")
}

// checkMergedOnce: #5 was merged once, by one invocation; its run completed.
func checkMergedOnce(t *testing.T, f *ghfake.Server, files map[string]string) {
	assert.True(t, f.PR("acme/widgets", 5).Merged)
	merges := 0
	for _, c := range f.Calls() {
		if c.Kind == "pulls/merge" {
			merges++
		}
	}
	assert.Equal(t, 1, merges, "one merge request, whatever the number of invocations that decided it")
	st5, err := state.DecodeFile(files["pr-5.json"], "acme/widgets#5")
	require.NoError(t, err)
	require.Len(t, st5.Runs, 1)
	assert.Equal(t, "ship", st5.Runs[0].Pipeline)
	assert.Equal(t, model.RunCompleted, st5.Runs[0].Status)
	assert.Empty(t, st5.Runs[0].Intents)
	assert.Empty(t, st5.Past)
}

func mustHead(t *testing.T, f *ghfake.Server, branch string) string {
	sha, ok := f.BranchHead("acme/widgets", branch)
	require.True(t, ok)
	return sha
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// The wait between two rounds of a subject grows with the time a round takes, so that
// invocations that lost a round to a slow GitHub or a busy runner do not all race again at
// once (TestRunConcurrentInvocations loses events on a busy machine otherwise).
func TestBackoffGrowsWithTheRound(t *testing.T) {
	longest := func(try int, round time.Duration) time.Duration {
		var most time.Duration
		for i := 0; i < 400; i++ {
			d := backoff(try, round)
			require.Positive(t, d)
			most = max(most, d)
		}
		return most
	}
	// Quick rounds: up to 50ms·2^try, at most 2s.
	assert.LessOrEqual(t, longest(1, time.Millisecond), 100*time.Millisecond+time.Millisecond)
	assert.LessOrEqual(t, longest(7, time.Millisecond), 2*time.Second+time.Millisecond)
	// A round of 2s: up to 2s·2^try; 400 draws all under 2s would have odds of 8^-400.
	assert.Greater(t, longest(3, 2*time.Second), 2*time.Second)
	assert.LessOrEqual(t, longest(3, 2*time.Second), 16*time.Second+time.Millisecond)
	assert.LessOrEqual(t, longest(7, 4*time.Second), maxBackoff+time.Millisecond)
}
