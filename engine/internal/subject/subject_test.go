package subject

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fakeKernel is a Kernel over plain values that records what the kinds asked of it.
type fakeKernel struct {
	scope     Scope
	runs      []*model.Run
	pipelines map[string]*lang.Pipeline
	merged    map[string]bool // run ID: its own merge (or a child's) is the one the facts show
	log       []string
	finished  []string // "<run> <status> <target>: <why>"
}

func (k *fakeKernel) Scope() Scope { return k.scope }

func (k *fakeKernel) Logf(format string, args ...any) {
	k.log = append(k.log, fmt.Sprintf(format, args...))
}

func (k *fakeKernel) Runs() []*model.Run { return k.runs }

func (k *fakeKernel) Pipeline(run *model.Run) *lang.Pipeline { return k.pipelines[run.Pipeline] }

func (k *fakeKernel) MergedByRun(_ *lang.Pipeline, run *model.Run) bool { return k.merged[run.ID] }

func (k *fakeKernel) Finish(run *model.Run, status model.RunStatus, target, why string) {
	run.Status = status
	k.finished = append(k.finished, fmt.Sprintf("%s %s %s: %s", run.ID, status, target, why))
}

const own = "acme/web"

// issueScope is the scope of an evaluation of issue 7 of acme/web, with prs read.
func issueScope(prs map[int]*model.PullRequest, others map[string]*model.PullRequest) Scope {
	f := &model.Facts{Repo: own, Issue: &model.Issue{Number: 7, Title: "fix it", State: model.IssueOpen, Author: "ann"},
		PRs: prs, Others: others}
	is := NewIssue(f)
	return Scope{Facts: is.View, Issue: is}
}

func openPR(n int, repo, author string) *model.PullRequest {
	return &model.PullRequest{Number: n, State: model.PROpen, HeadRepo: repo, Author: author, HeadSHA: fmt.Sprintf("sha%d", n)}
}

func TestKindOf(t *testing.T) {
	pr := Scope{Facts: &model.Facts{Repo: own, PR: openPR(1, own, "ann")}}
	is := issueScope(nil, nil)
	multi := &lang.Pipeline{Scope: lang.ScopeMultiPR}
	assert.Equal(t, "pull request", KindOf(pr, multi).Name(), "a pull request's runs follow it, whatever the pipeline")
	assert.Equal(t, "issue", KindOf(is, nil).Name())
	assert.Equal(t, "issue", KindOf(is, &lang.Pipeline{Scope: lang.ScopeIssue}).Name())
	assert.Equal(t, "multi-PR", KindOf(is, multi).Name())
}

func TestNewIssueView(t *testing.T) {
	assert.Nil(t, NewIssue(&model.Facts{PR: openPR(1, own, "ann"), Issue: &model.Issue{Number: 2}}), "a pull request's facts")
	s := issueScope(nil, nil)
	require.NotNil(t, s.Facts.PR)
	assert.Equal(t, 7, s.Facts.PR.Number)
	assert.Equal(t, model.PROpen, s.Facts.PR.State)
	s.Issue.Issue.State = "closed"
	assert.Equal(t, model.PRClosed, NewIssue(s.Issue.Base).View.PR.State, "a closed issue is a closed subject")
}

func TestIssueAssociate(t *testing.T) {
	fork := openPR(4, "mallory/web", "mallory")
	fork.CrossRepo = true
	closed := openPR(5, own, "dev")
	closed.State = model.PRClosed
	k := &fakeKernel{scope: issueScope(map[int]*model.PullRequest{9: openPR(9, own, "dev"), 3: openPR(3, own, "dev"), 4: fork, 5: closed}, nil)}
	run := &model.Run{ID: "r/7/1"}
	OfIssue.Associate(k, nil, run, map[string]any{"pr": "#9"})
	OfIssue.Associate(k, nil, run, map[string]any{"pr": 3})
	OfIssue.Associate(k, nil, run, map[string]any{"pr": 3})
	assert.Equal(t, 9, run.Context["pr_number"], "the first associated stays the run's")
	assert.Equal(t, []any{3, 9}, run.Context["prs"])
	OfIssue.Associate(k, nil, run, map[string]any{"pr": 4})
	assert.Contains(t, run.Message, "a fork's pull request is not associated")
	OfIssue.Associate(k, nil, run, map[string]any{"pr": 5})
	assert.Equal(t, "outputs.pr 5 refused: #5 is closed", run.Message)
	OfIssue.Associate(k, nil, run, map[string]any{"pr": 12})
	assert.Contains(t, run.Message, "#12 is not a pull request of acme/web")
	assert.Equal(t, []any{3, 9}, run.Context["prs"], "nothing refused is associated")
	OfIssue.Associate(k, nil, run, map[string]any{"other": 1})
	assert.Len(t, k.log, 5, "one line per association and per refusal")
}

func TestPullRequestAssociateIgnoresAnother(t *testing.T) {
	k := &fakeKernel{scope: Scope{Facts: &model.Facts{Repo: own, PR: openPR(1, own, "ann")}}}
	run := &model.Run{ID: "r/1/1"}
	PullRequest.Associate(k, nil, run, map[string]any{"pr": 1})
	assert.Empty(t, k.log)
	PullRequest.Associate(k, nil, run, map[string]any{"pr": 2})
	assert.Equal(t, []string{"run r/1/1: outputs.pr 2 ignored: a pull request's run follows its own pull request, #1"}, k.log)
	assert.Nil(t, run.Context)
}

func agentStage(repo string, templated bool) *lang.Stage {
	v := lang.Value{Scalar: repo}
	if templated {
		v.Template = &lang.Template{}
	}
	return &lang.Stage{ID: "impl", Values: []lang.KeyValue{{Key: "repo", Value: v}}}
}

func TestMultiPRAssociate(t *testing.T) {
	k := &fakeKernel{scope: issueScope(map[int]*model.PullRequest{2: openPR(2, own, "dev")},
		map[string]*model.PullRequest{"acme/api#12": openPR(12, "acme/api", "bob")})}
	run := &model.Run{ID: "m/7/1"}
	MultiPR.Associate(k, agentStage("acme/api", false), run, map[string]any{"pr": 12})
	MultiPR.Associate(k, agentStage("", false), run, map[string]any{"pr": 2})
	assert.Equal(t, "acme/api#12", run.Context["pr_number"])
	assert.Equal(t, []any{"acme/api#12", "acme/web#2"}, run.Context["prs"], "in the order associated")
	MultiPR.Associate(k, agentStage("acme/api", false), run, map[string]any{"pr": "acme/other#12"})
	assert.Contains(t, run.Message, `stage "impl" opens its pull request in acme/api, not acme/other`)
	MultiPR.Associate(k, agentStage("acme/{{ x }}", true), run, map[string]any{"pr": 12})
	assert.Contains(t, run.Message, "is a template")
	MultiPR.Associate(k, agentStage("acme/api", false), run, map[string]any{"pr": 13})
	assert.Contains(t, run.Message, "acme/api#13 is not a pull request (or it was not read)")
	assert.Len(t, run.Context["prs"], 2)
}

func TestMultiPRAuthors(t *testing.T) {
	s := issueScope(map[int]*model.PullRequest{2: openPR(2, own, "dev")},
		map[string]*model.PullRequest{"acme/api#12": openPR(12, "acme/api", "bob")})
	run := &model.Run{ID: "m/7/1", Context: map[string]any{"pr_number": "acme/web#2", "prs": []any{"acme/web#2", "acme/api#12"}}}
	assert.Equal(t, []string{"dev", "dev", "bob"}, MultiPR.Authors(s, run))
	assert.Equal(t, []string{"dev"}, OfIssue.Authors(s, run), "an issue's run: its pull request's author")
	assert.Nil(t, PullRequest.Authors(s, run))
	assert.True(t, MultiPR.MayHaveAuthored(s, run, "Bob"))
	assert.False(t, OfIssue.MayHaveAuthored(s, run, "bob"), "not the author of the issue run's pull request")
	assert.False(t, MultiPR.MayHaveAuthored(s, run, "carol"))
	delete(s.Issue.Base.Others, "acme/api#12")
	assert.True(t, MultiPR.MayHaveAuthored(s, run, "carol"), "a pull request not read: its author is not known")
	assert.False(t, OfIssue.MayHaveAuthored(s, &model.Run{}, "carol"), "no pull request yet")
}

func TestIssueEnv(t *testing.T) {
	s := issueScope(map[int]*model.PullRequest{2: openPR(2, own, "dev")}, nil)
	env := lang.Env{"github": map[string]any{"pr": "the view"}}
	OfIssue.Env(s, &model.Run{}, env)
	gh := env["github"].(map[string]any)
	assert.Nil(t, gh["pr"], "no pull request yet")
	assert.Equal(t, 7, gh["issue"].(map[string]any)["number"])
	OfIssue.Env(s, &model.Run{Context: map[string]any{"pr_number": 2}}, env)
	assert.Equal(t, 2, gh["pr"].(map[string]any)["number"])
	env = lang.Env{"github": map[string]any{"pr": "kept"}}
	PullRequest.Env(s, &model.Run{}, env)
	assert.Equal(t, "kept", env["github"].(map[string]any)["pr"])
}

func TestPullRequestClosed(t *testing.T) {
	pr := openPR(1, own, "ann")
	pr.State = model.PRMerged
	pr.MergedBy = "bob"
	runs := []*model.Run{
		{ID: "a/1/1", Pipeline: "a", Status: model.RunRunning},
		{ID: "a/1/2", Pipeline: "a", Status: model.RunRunning}, // merged by itself
		{ID: "c/1/1", Pipeline: "c", Status: model.RunRunning}, // starts on closed
		{ID: "a/1/3", Pipeline: "a", Status: model.RunRunning, Parent: "a/1/1"},
		{ID: "a/1/4", Pipeline: "a", Status: model.RunCompleted},
	}
	k := &fakeKernel{scope: Scope{Facts: &model.Facts{Repo: own, PR: pr}}, runs: runs, merged: map[string]bool{"a/1/2": true},
		pipelines: map[string]*lang.Pipeline{"a": {Name: "a"}, "c": {Name: "c", Trigger: lang.Trigger{Event: "pull_request.closed"}}}}
	PullRequest.Closed(k)
	assert.Equal(t, []string{"a/1/1 completed complete: the pull request was merged by bob, outside this run"}, k.finished)

	pr.State, k.finished = model.PRClosed, nil
	runs[0].Status = model.RunRunning
	PullRequest.Closed(k)
	assert.Equal(t, []string{"a/1/1 cancelled cancelled: the pull request was closed", "a/1/2 cancelled cancelled: the pull request was closed"}, k.finished)

	pr.State, k.finished = model.PROpen, nil
	runs[0].Status = model.RunRunning
	PullRequest.Closed(k)
	OfIssue.Closed(k)
	assert.Empty(t, k.finished, "an open pull request, and an issue, end nothing")
}

func TestFollowOthers(t *testing.T) {
	s := issueScope(nil, nil)
	p := &lang.Pipeline{Scope: lang.ScopeMultiPR, Stages: []*lang.Stage{{ID: "ci", Type: lang.StageGate}, {ID: "impl", Type: lang.StageAgent}}}
	run := &model.Run{Status: model.RunWaiting, Stage: "ci", Stages: map[string]*model.StageRun{"ci": {}, "impl": {}},
		Context: map[string]any{"prs": []any{"acme/web#2"}}}
	FollowOthers(s, p, run, t0)
	assert.Empty(t, run.Stages["ci"].Deadlines, "every pull request is of the subject's repository: its events come")
	run.Context["prs"] = []any{"acme/web#2", "acme/api#12"}
	FollowOthers(s, p, run, t0)
	FollowOthers(s, p, run, t0)
	require.Len(t, run.Stages["ci"].Deadlines, 1, "armed once")
	assert.Equal(t, model.Deadline{Kind: model.DeadlineFollow, At: t0.Add(model.FollowInterval)}, run.Stages["ci"].Deadlines[0])
	run.Stage = "impl"
	FollowOthers(s, p, run, t0)
	assert.Empty(t, run.Stages["impl"].Deadlines, "an agent stage does not wait on the pull requests")
	run.Stage = "ci"
	FollowOthers(s, &lang.Pipeline{Scope: lang.ScopeIssue, Stages: p.Stages}, run, t0)
	assert.Len(t, run.Stages["ci"].Deadlines, 1)
}

func TestTriggerSince(t *testing.T) {
	s := issueScope(nil, nil)
	s.Issue.Issue.CreatedAt = t0
	at, level := s.Issue.TriggerSince(&lang.Pipeline{Trigger: lang.Trigger{Event: "issues.opened"}})
	assert.True(t, level)
	assert.Equal(t, t0, at)
	_, level = s.Issue.TriggerSince(&lang.Pipeline{Trigger: lang.Trigger{Event: "issue_comment.created"}})
	assert.False(t, level, "a happening")
	at, level = s.Issue.TriggerSince(&lang.Pipeline{Trigger: lang.Trigger{Event: "issues.labeled", Labels: []string{"go"}}})
	assert.True(t, level)
	assert.True(t, at.IsZero(), "the label is not on the issue")
}

func TestFits(t *testing.T) {
	pr := Scope{Facts: &model.Facts{Repo: own, PR: openPR(1, own, "ann")}}
	is := issueScope(nil, nil)
	onIssues := &lang.Pipeline{Trigger: lang.Trigger{Event: "issues.opened"}}
	onPRs := &lang.Pipeline{Trigger: lang.Trigger{Event: "pull_request.opened"}}
	assert.True(t, pr.Fits(onPRs))
	assert.False(t, pr.Fits(onIssues))
	assert.True(t, is.Fits(onIssues))
	assert.True(t, is.Fits(&lang.Pipeline{Scope: lang.ScopeMultiPR}))
	assert.False(t, is.Fits(onPRs))
}
