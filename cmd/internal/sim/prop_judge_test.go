package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
	"github.com/stretchr/testify/assert"
)

// The judges of the property test. Each reads the fake GitHub's records (the merge and
// what stood then, the comments, the calls the action made) and the config as the
// generator wrote it, and the runs' own account of which stages they passed or skipped;
// none asks the engine what should have happened. A run's account can only make a judge
// stricter: every stage it says it passed must hold, every stage it says it skipped must
// have had a false condition.
const (
	propPlays      = "plays"                        // the story plays: no step refused
	propPathOwn    = "merged-path-own"              // a gate or human stage of the merging run held at the merge
	propPathChild  = "merged-path-child"            // ... of a sub-pipeline or a parallel branch's child of it
	propEdited     = "merged-edited-approval"       // a human stage held at the merge only through an edited /pipeline approve
	propTrigger    = "merged-trigger"               // the merging pipeline's trigger conditions (base, author) held at the merge
	propUnclaimed  = "merged-unclaimed"             // a run says it merged
	propAgentHead  = "merged-agent-head"            // where a push restarts an agent, the attempt the merge rests on was dispatched for the merged head
	propSkipped    = "skipped-condition-true"       // a skipped human stage's condition was false on the merged head
	propSkipChild  = "skipped-condition-true-child" // ... in a sub-pipeline or a parallel branch's child
	propSkipOther  = "skipped-condition-true-other" // ... of an agent, pipeline or parallel stage
	propLoop       = "no-runaway-loop"              // no run failed for a loop that never waits (at a human stage with a condition)
	propLoopOther  = "no-runaway-loop-other"        // ... anywhere else
	propAfterDone  = "no-effect-after-merge"        // no dispatch, label or comment after the merge, in the event that merged
	propAfterLater = "no-effect-after-done"         // ... nor in a later event, nor after a close
	propWritePerms = "write maintain admin"
)

// propJudges lists them in the order the report gives them.
var propJudges = []string{propPlays, propPathOwn, propPathChild, propEdited, propTrigger, propUnclaimed, propAgentHead, propSkipped, propSkipChild, propSkipOther, propLoop, propLoopOther, propAfterDone, propAfterLater}

// propKnownOpen are the judges whose failures are defects issue 27 names and other
// branches fix: the test reports their failures (t.Logf) instead of failing. Empty this
// list as the fixes land.
var propKnownOpen = map[string]string{}

type propFailure struct{ judge, detail string }

// propWorld is what the judges read of a played story at its merge.
type propWorld struct {
	run      *propRun
	m        ghfake.MergeRecord
	at       int // the step that merged
	labels   []string
	comments []ghfake.CommentView
	headAt   time.Time // when the merged head was pushed
	baseAt   time.Time // when the base last changed before the merge
	fail     func(judge, format string, args ...any)
}

func judgeProp(run *propRun) []propFailure {
	var out []propFailure
	fail := func(judge, format string, args ...any) {
		out = append(out, propFailure{judge, fmt.Sprintf(format, args...)})
	}
	if run.err != nil {
		fail(propPlays, "%v", run.err)
		return out
	}
	judgeLoops(run, fail)
	judgeAfterDone(run, fail)
	for _, m := range run.fake.Merges() {
		if m.Number == propPR {
			judgeMerge(newPropWorld(run, m, fail))
		}
	}
	return out
}

func newPropWorld(run *propRun, m ghfake.MergeRecord, fail func(string, string, ...any)) *propWorld {
	w := &propWorld{run: run, m: m, fail: fail}
	for i, f := range run.facts {
		if f.merged {
			w.at = i
			break
		}
	}
	for i := 0; i <= w.at; i++ {
		f := run.facts[i]
		if f.head != "" && (i == 0 || run.facts[i-1].head != f.head) {
			w.headAt = f.at
		}
		if i > 0 && run.facts[i-1].base != "" && run.facts[i-1].base != f.base {
			w.baseAt = f.at
		}
	}
	run.fake.PR(propRepo, propPR) // the labels after the merge are those at it: a story stops at its merge
	w.labels = run.fake.PR(propRepo, propPR).Labels
	w.comments = run.fake.Comments(propRepo, propPR)
	return w
}

// judgeMerge finds the run that merged and holds the path it says it took to the facts at
// the merge.
func judgeMerge(w *propWorld) {
	var merged *model.Run
	subject := fmt.Sprintf("%s#%d", propRepo, propPR)
	for _, r := range w.run.runs {
		if sr := r.Stages["merge"]; r.Subject == subject && r.Parent == "" && sr != nil && sr.Status == model.StageSucceeded {
			merged = r
		}
	}
	if merged == nil {
		var runs []string
		for _, r := range w.run.runs {
			runs = append(runs, fmt.Sprintf("%s %s at %s %v", r.ID, r.Status, r.Stage, r.Stages["merge"]))
		}
		w.fail(propUnclaimed, "pull request merged at step %d; no run says it merged (runs: %v)", w.at+1, runs)
		return
	}
	pipe := w.run.cfg.pipe(merged.Pipeline)
	base := w.run.facts[w.at].base
	if pipe.base != "" && base != pipe.base {
		w.fail(propTrigger, "run %s merged into %s; its trigger takes base_branch %s", merged.ID, base, pipe.base)
	}
	if pipe.author != "" && pipe.author != propAuthor {
		w.fail(propTrigger, "run %s merged a pull request of %s; its trigger takes author %s", merged.ID, propAuthor, pipe.author)
	}
	w.walk(merged, pipe, propPathOwn)
	w.agentHead(merged, pipe)
}

// agentHead: where a push restarts an agent stage, the attempt of it the run passed was
// dispatched once the merged head was there.
func (w *propWorld) agentHead(r *model.Run, pipe *propPipe) {
	sr := r.Stages[pipe.restart]
	if pipe.restart == "" || sr == nil || sr.Status != model.StageSucceeded {
		return
	}
	for _, d := range w.run.fake.Dispatches() {
		if fmt.Sprint(d.Inputs["run"]) == r.ID && fmt.Sprint(d.Inputs["stage"]) == pipe.restart && fmt.Sprint(d.Inputs["attempt"]) == fmt.Sprint(sr.Attempt) &&
			!d.Created.IsZero() && d.Created.Before(w.headAt) { // a repository_dispatch tells no time
			w.fail(propAgentHead, "run %s passed agent stage %s on attempt %d, dispatched at %s; the merged head %s was pushed at %s",
				r.ID, pipe.restart, sr.Attempt, d.Created.Format(time.TimeOnly), short(w.m.HeadSHA), w.headAt.Format(time.TimeOnly))
		}
	}
}

// walk holds every stage r passed to the facts at the merge, and every child run of the
// stages and branches it passed.
func (w *propWorld) walk(r *model.Run, pipe *propPipe, judge string) {
	if pipe == nil {
		return
	}
	for _, s := range pipe.stages {
		sr := r.Stages[s.id]
		if sr == nil {
			continue
		}
		if sr.Status == model.StageSkipped {
			// An action or a webhook skipped holds nothing back: its condition is decided once,
			// as it is entered. What a merge rests on must be decided again at the merge.
			if s.cond != nil && s.typ != "action" && s.typ != "webhook" && w.condHolds(s.cond) {
				j := propSkipped
				switch {
				case s.typ != "human":
					j = propSkipOther
				case judge == propPathChild:
					j = propSkipChild
				}
				w.fail(j, "run %s skipped %s stage %s; its condition holds on the merged head", r.ID, s.typ, s.id)
			}
			continue
		}
		if sr.Status != model.StagePassed && sr.Status != model.StageSucceeded {
			continue
		}
		switch s.typ {
		case "gate":
			for _, c := range s.checks {
				if why := w.checkHolds(c); why != "" {
					w.fail(judge, "run %s passed gate %s; at the merge %s", r.ID, s.id, why)
				}
			}
		case "human":
			if !w.humanHolds(s.from, false) {
				j := judge
				if w.humanHolds(s.from, true) {
					j = propEdited
				}
				w.fail(j, "run %s passed human stage %s; at the merge no approval of the merged head counts", r.ID, s.id)
			}
		case "pipeline":
			w.walkChild(r, s.id, s.child)
		case "parallel":
			for _, b := range s.branches {
				if bsr := r.Stages[b.id]; b.pipeline != "" && bsr != nil && bsr.Status == model.StageSucceeded {
					w.walkChild(r, b.id, b.pipeline)
				}
			}
		}
	}
}

// walkChild walks the newest child run the stage (or branch) id of r started.
func (w *propWorld) walkChild(r *model.Run, id, pipeline string) {
	var child *model.Run
	for _, c := range w.run.runs {
		if c.Parent == r.ID+"/"+id && (child == nil || runNumber(c.ID) > runNumber(child.ID)) {
			child = c
		}
	}
	if child == nil {
		return
	}
	w.walk(child, w.run.cfg.pipe(pipeline), propPathChild)
}

func runNumber(id string) int {
	var n int
	fmt.Sscanf(id[strings.LastIndexByte(id, '/')+1:], "%d", &n)
	return n
}

// condHolds evaluates a stage's condition on the merged head.
func (w *propWorld) condHolds(c *propCond) bool {
	if c.path != "" {
		return slices.Contains(w.run.facts[w.at].files, "security/auth.go")
	}
	return w.hasLabel(c.label)
}

func (w *propWorld) hasLabel(l string) bool {
	return slices.ContainsFunc(w.labels, func(x string) bool { return strings.EqualFold(x, l) })
}

// latestReviews is each person's latest review that is not a comment, by login.
func (w *propWorld) latestReviews() map[string]ghfake.ReviewRecord {
	out := map[string]ghfake.ReviewRecord{}
	for _, rv := range w.m.Reviews {
		if rv.State != "COMMENTED" && rv.State != "PENDING" {
			out[rv.User] = rv
		}
	}
	return out
}

// checkHolds says why a gate check did not hold at the merge ("" when it did).
func (w *propWorld) checkHolds(c propCheck) string {
	switch c.kind {
	case "human_approved":
		n := 0
		for user, rv := range w.latestReviews() {
			if rv.State == "APPROVED" && rv.CommitID == w.m.HeadSHA && w.counts(user, rv.Permission, c.from) && w.reviewedSince(user) {
				n++
			}
		}
		if n < c.count {
			return fmt.Sprintf("human_approved wants %d approvals of %s, %d counted (reviews %v)", c.count, short(w.m.HeadSHA), n, w.m.Reviews)
		}
	case "no_changes_requested":
		for user, rv := range w.latestReviews() {
			if rv.State == "CHANGES_REQUESTED" && w.counts(user, rv.Permission, false) {
				return fmt.Sprintf("%s requests changes", user)
			}
		}
	case "ci_status":
		green := len(w.m.Checks) > 0
		for _, ck := range w.m.Checks {
			green = green && ck.Status == "completed" && ck.Conclusion == "success"
		}
		if !green {
			return fmt.Sprintf("CI is not green on %s (%v)", short(w.m.HeadSHA), w.m.Checks)
		}
	case "label_present", "expr":
		if !w.hasLabel(c.label) {
			return fmt.Sprintf("label %s is not on the pull request (labels %v)", c.label, w.labels)
		}
	}
	return ""
}

// counts reports whether user's word counts: write access at the merge, not the author,
// no app, a maintainer when from says so.
func (w *propWorld) counts(user, perm string, from bool) bool {
	return user != propAuthor && !strings.HasSuffix(user, "[bot]") && perm != "" && strings.Contains(propWritePerms, perm) &&
		(!from || slices.Contains(propMaintainers, user))
}

// reviewedSince reports whether user's latest review was given after the last change of
// base (a base change is a new head for approvals).
func (w *propWorld) reviewedSince(user string) bool {
	if w.baseAt.IsZero() {
		return true
	}
	for i := w.at; i >= 0; i-- {
		st := w.run.steps[i]
		if st.kind == "review" && strings.Contains(st.body, "user: "+user+",") {
			return !w.run.facts[i].at.Before(w.baseAt)
		}
	}
	return true
}

// humanHolds reports whether someone who counts approved the merged head at the merge: a
// review of it, or a /pipeline approve written since it was pushed and since the last change
// of base, unedited (edited: counting a text edited away too).
func (w *propWorld) humanHolds(from, edited bool) bool {
	for user, rv := range w.latestReviews() {
		if rv.State == "APPROVED" && rv.CommitID == w.m.HeadSHA && w.counts(user, rv.Permission, from) && w.reviewedSince(user) {
			return true
		}
	}
	perms := w.run.facts[w.at].perms
	for _, c := range w.comments {
		text := c.Body
		if edited && len(c.Edits) > 0 {
			text = c.Edits[0]
		}
		if !strings.HasPrefix(text, "/pipeline approve") || (!edited && c.Editor != "" && c.Editor != c.Author) {
			continue
		}
		if c.CreatedAt.Before(w.headAt) || c.CreatedAt.Before(w.baseAt) || c.CreatedAt.After(w.m.At) {
			continue
		}
		if w.counts(c.Author, perms[c.Author], from) {
			return true
		}
	}
	return false
}

// judgeLoops: a config validate accepts never ends a run for a loop that never waits.
// The loop of a run whose pipeline has a human stage with a condition (skipped, the guard
// sends the run back there, it skips again, and round) is told apart from any other.
func judgeLoops(run *propRun, fail func(string, string, ...any)) {
	for _, r := range run.runs {
		if r.Status != model.RunFailed || !(strings.Contains(r.Message, "times in one event") || strings.Contains(r.Message, "never waits")) {
			continue
		}
		j := propLoopOther
		if p := run.cfg.pipe(r.Pipeline); p != nil {
			for _, s := range p.stages {
				if s.typ == "human" && s.cond != nil {
					j = propLoop
				}
			}
		}
		fail(j, "run %s failed: %s", r.ID, r.Message)
	}
}

// judgeAfterDone: once the pull request is merged or closed, the action dispatches, labels
// and comments nothing more on it (its state comment aside). Within the step that merged,
// the calls after the merge's count, in the order the fake answered them.
func judgeAfterDone(run *propRun, fail func(string, string, ...any)) {
	done := slices.IndexFunc(run.facts, func(f propFact) bool { return f.merged || f.closed })
	if done < 0 {
		return
	}
	for i := done; i < len(run.facts); i++ {
		f := run.facts[i]
		from := 0
		if i == done && f.merged {
			from = slices.IndexFunc(f.calls, func(c ghfake.Call) bool { return c.Kind == "pulls/merge" && c.Status < 300 })
			if from < 0 {
				continue // merged by a step of the story's: nothing to order
			}
		}
		j := propAfterLater
		if i == done && f.merged {
			j = propAfterDone
		}
		comments := 0
		for _, c := range f.calls[from:] {
			switch {
			case c.Status >= 300:
			case c.Kind == "actions/create-workflow-dispatch" || c.Kind == "repos/create-dispatch-event":
				fail(j, "step %d: %s after the pull request was %s", i+1, c.Kind, doneWord(run.facts[done]))
			case c.Kind == "issues/add-labels" && strings.Contains(c.Path, fmt.Sprintf("/issues/%d/", propPR)):
				fail(j, "step %d: labels added after the pull request was %s", i+1, doneWord(run.facts[done]))
			case c.Kind == "issues/create-comment" && strings.Contains(c.Path, fmt.Sprintf("/issues/%d/", propPR)):
				comments++
			}
		}
		// The comments the action posted after it are the last ones it posted in the step.
		posted := f.newBot[max(0, len(f.newBot)-comments):]
		for _, c := range posted {
			if !state.HasMarker(c.Body) && !state.IsPlaceholder(c.Body) {
				fail(j, "step %d: comment %q after the pull request was %s", i+1, firstLine(c.Body), doneWord(run.facts[done]))
			}
		}
	}
}

func doneWord(f propFact) string {
	if f.merged {
		return "merged"
	}
	return "closed"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// The judges of TestProperty find what they are there for, on worlds made by hand.
func TestPropJudges(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	perms := map[string]string{"alice": "write", "bob": "write", "dan": "write", "carol": "read"}
	world := func(reviews []ghfake.ReviewRecord, checks []ghfake.CheckRecord, labels []string, comments ...ghfake.CommentView) *propWorld {
		run := &propRun{
			steps: []*propStep{{kind: "open_pr"}, {kind: "push"}, {kind: "review", body: "{pr: 7, user: alice, state: approved}"}},
			facts: []propFact{{at: at(1), head: "h1", base: "main", perms: perms, files: []string{"src/app.go"}},
				{at: at(2), head: "h2", base: "main", perms: perms, files: []string{"src/app.go"}},
				{at: at(3), head: "h2", base: "main", merged: true, perms: perms, files: []string{"src/app.go"}}},
		}
		return &propWorld{run: run, at: 2, headAt: at(2), labels: labels, comments: comments,
			m: ghfake.MergeRecord{Number: propPR, Author: propAuthor, HeadSHA: "h2", At: at(3), Reviews: reviews, Checks: checks}}
	}
	green := []ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "success"}}
	red := []ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "failure"}}
	alice := ghfake.ReviewRecord{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h2"}
	dan := ghfake.ReviewRecord{User: "dan", Permission: "write", State: "APPROVED", CommitID: "h2"}

	ci := propCheck{kind: "ci_status"}
	assert.Empty(t, world(nil, green, nil).checkHolds(ci))
	assert.Contains(t, world(nil, red, nil).checkHolds(ci), "not green")
	assert.Contains(t, world(nil, nil, nil).checkHolds(ci), "not green")

	one, two, from := propCheck{kind: "human_approved", count: 1}, propCheck{kind: "human_approved", count: 2}, propCheck{kind: "human_approved", count: 1, from: true}
	assert.Empty(t, world([]ghfake.ReviewRecord{alice}, nil, nil).checkHolds(one))
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{alice}, nil, nil).checkHolds(two))
	assert.Empty(t, world([]ghfake.ReviewRecord{alice, dan}, nil, nil).checkHolds(two))
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{dan}, nil, nil).checkHolds(from), "dan is no maintainer")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h1"}}, nil, nil).checkHolds(one), "an older head")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: "alice", Permission: "read", State: "APPROVED", CommitID: "h2"}}, nil, nil).checkHolds(one), "alice lost write")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: propAuthor, Permission: "write", State: "APPROVED", CommitID: "h2"}}, nil, nil).checkHolds(one), "the author")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{alice, {User: "alice", Permission: "write", State: "CHANGES_REQUESTED", CommitID: "h2"}}, nil, nil).checkHolds(one))
	assert.Empty(t, world([]ghfake.ReviewRecord{alice, {User: "alice", Permission: "write", State: "COMMENTED", CommitID: "h2"}}, nil, nil).checkHolds(one))

	ncr := propCheck{kind: "no_changes_requested"}
	assert.Empty(t, world([]ghfake.ReviewRecord{alice}, nil, nil).checkHolds(ncr))
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: "bob", Permission: "write", State: "CHANGES_REQUESTED", CommitID: "h1"}}, nil, nil).checkHolds(ncr))

	label := propCheck{kind: "label_present", label: "ready"}
	assert.Empty(t, world(nil, nil, []string{"Ready"}).checkHolds(label))
	assert.NotEmpty(t, world(nil, nil, []string{"ship"}).checkHolds(label))

	// A human stage: a review of the merged head, or a /pipeline approve since it was pushed,
	// unedited, by someone who counts.
	assert.True(t, world([]ghfake.ReviewRecord{alice}, nil, nil).humanHolds(false, false))
	assert.False(t, world([]ghfake.ReviewRecord{dan}, nil, nil).humanHolds(true, false))
	approve := ghfake.CommentView{Author: "bob", Body: "/pipeline approve", CreatedAt: at(2)}
	assert.True(t, world(nil, nil, nil, approve).humanHolds(true, false))
	early := approve
	early.CreatedAt = at(1)
	assert.False(t, world(nil, nil, nil, early).humanHolds(false, false), "before the merged head")
	byReader := approve
	byReader.Author = "carol"
	assert.False(t, world(nil, nil, nil, byReader).humanHolds(false, false))
	withdrawn := approve
	withdrawn.Body, withdrawn.Edits, withdrawn.Editor = "not yet", []string{"/pipeline approve"}, "bob"
	assert.False(t, world(nil, nil, nil, withdrawn).humanHolds(false, false))
	assert.True(t, world(nil, nil, nil, withdrawn).humanHolds(false, true), "counted only when an edited text counts")
	forged := approve
	forged.Body, forged.Edits, forged.Editor = "/pipeline approve", []string{"lgtm"}, propAuthor
	assert.False(t, world(nil, nil, nil, forged).humanHolds(false, false), "edited by someone else")

	assert.True(t, world(nil, nil, []string{"security"}).condHolds(&propCond{label: "security"}))
	assert.False(t, world(nil, nil, nil).condHolds(&propCond{path: "security/**"}))
}
