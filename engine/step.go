package engine

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Result is what Step and Settle return: the subject's new state, the effects to
// perform, and lines for the job log.
type Result struct {
	State   *State
	Effects []Effect
	Changed bool     // State differs from the state passed in (Seq was bumped)
	Log     []string // what happened, for humans reading the job log
	// Visits counts the stages each run entered in this event so far; the caller passes it
	// on to Settle (Input.Visits), so that a loop is bounded across effect rounds too.
	Visits map[string]int
	// NeedsFiles: a condition tested the changed files (paths_match) and the facts did
	// not hold them; the run it decided stopped for want of them. The caller reads them
	// (Facts.PR.Files) and evaluates again: Step and Settle are pure.
	NeedsFiles bool
}

// Step evaluates one input against the state of its subject. It is level-triggered:
// whatever the event, every run that is not final is evaluated against facts; the
// event only decides reactions (on_events) and which pipelines start. Step is pure:
// st is not modified.
func Step(cfg *lang.Config, st *State, in Input, facts *Facts, now time.Time) Result {
	e := newEval(cfg, st, facts, now, in)
	if e.facts == nil || e.facts.PR == nil {
		e.logf("no pull request facts for %s; nothing to evaluate", in.Event)
		return e.result(st)
	}
	// Before anything else: what became of the effects asked for earlier.
	e.reconcile()
	e.noteHeads()       // authority.go: before anything people did is counted
	e.reactLevelAll(in) // step_react_level.go: a push whose event is missing came first
	e.chatops()
	for _, run := range e.st.Runs {
		if run.Status.Final() {
			continue
		}
		p := cfg.PipelineFor(run)
		if p == nil {
			e.logf("run %s: pipeline %q is no longer in the config; left as it is", run.ID, run.Pipeline)
			e.dropDeadlines(run)
			continue
		}
		e.react(p, run, in) // step_react.go
	}
	for _, run := range e.st.Runs {
		if p := cfg.PipelineFor(run); p != nil && !run.Status.Final() {
			if why := e.noLongerMatches(p); why != "" {
				e.finish(run, RunCancelled, TargetCancelled, why)
			}
		}
	}
	e.closedSubject() // step_closed.go: whatever events were lost
	for _, p := range cfg.Pipelines {
		if p.Trigger.Event == "" {
			continue // a sub-pipeline
		}
		if !e.scopeFits(p) { // step_issue.go
			continue
		}
		onEvent := p.Trigger.Event == in.Event
		since, level := e.triggerSince(p)
		if !onEvent && since.IsZero() {
			continue
		}
		if !e.triggerMatches(p, onEvent) {
			continue
		}
		if e.started(p.Name, in.Key) {
			e.logf("pipeline %q: already started by this event; not started again", p.Name)
			continue
		}
		if level && e.startedSince(p.Name, since) {
			if onEvent {
				e.logf("pipeline %q: already started since its trigger last held (%s); not started again", p.Name, since.UTC().Format(time.RFC3339))
			}
			continue
		}
		if active := e.active(p.Name); active != nil {
			if onEvent {
				e.logf("pipeline %q: run %s is still active; not started again", p.Name, active.ID)
			}
			continue
		}
		if !e.triggerIfHolds(p, in, onEvent) { // step_trigger_if.go
			continue
		}
		why := "started on " + in.Event
		if !onEvent {
			why = fmt.Sprintf("started late on %s: its trigger %s holds since %s, and that event was not seen",
				in.Event, p.Trigger.Event, since.UTC().Format("2006-01-02 15:04 UTC"))
		}
		e.start(p, in, since, why)
	}
	if in.Report != nil {
		e.applyReport(in.Report)
	}
	if in.AgentFailure != nil {
		e.applyAgentFailure(in.AgentFailure)
	}
	e.advanceAll()
	e.noteHeads() // a pull request a run came to name in this step
	return e.result(st)
}

// TargetCancelled is the pseudo-target history shows when a run is cancelled.
const TargetCancelled = "cancelled"

type eval struct {
	cfg   *lang.Config
	st    *State
	facts *Facts
	now   time.Time
	actor string
	// settling is set in Settle: a stage whose effect was just refused waits for the
	// next event instead of being tried again at once.
	settling bool
	// refused holds the runs whose effect was refused in this Settle.
	refused map[string]bool
	// deadline is the invocation's (Input.Deadline): intents written now are in flight until then.
	deadline time.Time
	// delivery is the event's key (Input.Key) and nonces the state key's signer
	// (Input.Nonces): what a dispatch's nonce is made from and signed with.
	delivery string
	nonces   NonceSigner
	// unknown holds the intents reconcile dropped because their outcome stayed unknown and
	// their invocation has ended, by key: asked for again, their effect gets the next Try.
	unknown map[string]Intent
	// outcomes are Input.Outcomes: what this invocation knows of effects it performed.
	outcomes []Outcome
	effects  []Effect
	log      []string
	visits   map[string]int // see moveGuard
	// gateEnv is the env of the run whose gates are evaluated (see withRun); nil elsewhere.
	gateEnv func() lang.Env
	// gateRun and gatePipeline are the run whose gates are evaluated (withRun), for
	// checks that read another of its pull requests' ledger (step_ledger_pr.go).
	gateRun      *Run
	gatePipeline *lang.Pipeline
	// needsFiles: a condition needed the changed files, which the facts do not hold.
	needsFiles bool
	// issue is set when the subject is an issue (step_issue.go).
	issue *issueSubject
	// mergePolls are the mergeability polls due in this evaluation, by run (step_merge_poll.go).
	mergePolls map[string]Deadline
}

func newEval(cfg *lang.Config, st *State, facts *Facts, now time.Time, in Input) *eval {
	if facts != nil && cfg != nil && facts.ContributorsApprove != cfg.Settings.AllowContributors {
		f := *facts // the caller's facts are not changed
		f.ContributorsApprove = cfg.Settings.AllowContributors
		facts = &f
	}
	e := &eval{cfg: cfg, st: clone(st), facts: facts, now: now, actor: in.Actor, deadline: in.Deadline,
		delivery: in.Key, nonces: in.Nonces,
		unknown: map[string]Intent{}, outcomes: in.Outcomes, visits: copyVisits(in.Visits)}
	e.issueView() // step_issue.go
	return e
}

func (e *eval) logf(format string, args ...any) { e.log = append(e.log, fmt.Sprintf(format, args...)) }

func (e *eval) result(old *State) Result {
	if old == nil {
		old = &State{Version: 1}
	}
	changed := !bytes.Equal(mustJSON(old), mustJSON(e.st))
	if changed {
		e.st.Seq++
	}
	return Result{State: e.st, Effects: e.effects, Changed: changed, Log: e.log, Visits: e.visits, NeedsFiles: e.needsFiles}
}

func (e *eval) subject() string {
	return e.facts.Repo + "#" + strconv.Itoa(e.facts.PR.Number)
}

// ownMerge returns the merge_pr stage of run that the facts show done: the PR is merged
// and the run stands at that stage, or the action itself merged it and the stage lies
// ahead of the run (a merge whose state was not saved). Nil otherwise.
func (e *eval) ownMerge(p *lang.Pipeline, run *Run) *lang.Stage {
	pr := e.runPR(run) // step_issue.go
	if pr == nil || pr.State != PRMerged {
		return nil
	}
	if s := p.Stage(run.Stage); s != nil && s.Type == lang.StageAction && s.Action == lang.ActionMergePR {
		return s
	}
	if pr.MergedBy == "" || !SameIdentity(pr.MergedBy, e.facts.Viewer) {
		return nil
	}
	return reachableMerge(p, run.Stage)
}

// reachableMerge returns the first merge_pr stage of p reachable from stage from.
func reachableMerge(p *lang.Pipeline, from string) *lang.Stage {
	index := map[string]int{}
	for i, s := range p.Stages {
		index[s.ID] = i
	}
	start, ok := index[from]
	if !ok {
		return nil
	}
	seen := map[int]bool{start: true}
	for queue := []int{start}; len(queue) > 0; queue = queue[1:] {
		i := queue[0]
		if s := p.Stages[i]; s.Type == lang.StageAction && s.Action == lang.ActionMergePR {
			return s
		}
		for _, t := range lang.Successors(p, i) {
			if j, ok := index[t]; ok && !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return nil
}

// SameIdentity reports whether two logins name the same account, as GitHub spells an
// app's bot account in REST ("github-actions[bot]") and in GraphQL ("github-actions").
func SameIdentity(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.TrimSuffix(s, "[bot]")) }
	return a != "" && norm(a) == norm(b)
}

// triggerMatches reports whether the PR meets the conditions of p's trigger. Why it does
// not is logged when logged is set (the event is the trigger's own).
func (e *eval) triggerMatches(p *lang.Pipeline, logged bool) bool {
	pr, t := e.facts.PR, p.Trigger
	logf := func(format string, args ...any) {
		if logged {
			e.logf(format, args...)
		}
	}
	if pr.State != PROpen {
		return false
	}
	if t.BaseBranch != "" && pr.BaseRef != t.BaseBranch {
		logf("pipeline %q: base branch is %q, not %q; not started", p.Name, pr.BaseRef, t.BaseBranch)
		return false
	}
	for _, l := range t.Labels {
		if !pr.HasLabel(l) {
			logf("pipeline %q: label %q is missing; not started", p.Name, l)
			return false
		}
	}
	if t.Draft != nil && pr.Draft != *t.Draft {
		logf("pipeline %q: draft is %t; not started", p.Name, pr.Draft)
		return false
	}
	if t.Author != "" && !strings.EqualFold(pr.Author, t.Author) {
		logf("pipeline %q: author is %q, not %q; not started", p.Name, pr.Author, t.Author)
		return false
	}
	return true
}

// triggerSince makes triggers level-triggered: for a trigger that names a state of the
// PR (it is open; it carries its labels; it was reopened, made ready or a draft), it
// returns when that state last began, from the facts, so that a pipeline whose trigger
// event was lost still starts on the next event. level is false for triggers that name
// a happening (a push, a review, an edit), which start only on their own event.
func (e *eval) triggerSince(p *lang.Pipeline) (since time.Time, level bool) {
	since, level = e.triggerStateSince(p)
	// A PR retargeted to the base its trigger takes meets the trigger anew from then on.
	if b := p.Trigger.BaseBranch; b != "" && !since.IsZero() {
		if at := e.facts.PR.Last(TimelineBaseChanged, b); at.After(since) {
			since = at
		}
	}
	return since, level
}

func (e *eval) triggerStateSince(p *lang.Pipeline) (since time.Time, level bool) {
	pr, t := e.facts.PR, p.Trigger
	if pr.State != PROpen {
		return time.Time{}, true
	}
	if e.issue != nil {
		return e.issueTriggerSince(p) // step_issue.go
	}
	switch t.Event {
	case "pull_request.opened":
		return pr.CreatedAt, true
	case "pull_request.reopened":
		return pr.Last(TimelineReopened, ""), true
	case "pull_request.ready_for_review":
		if pr.Draft {
			return time.Time{}, true
		}
		return pr.Last(TimelineReadyForReview, ""), true
	case "pull_request.converted_to_draft":
		if !pr.Draft {
			return time.Time{}, true
		}
		return pr.Last(TimelineConvertedToDraft, ""), true
	case "pull_request.labeled":
		if len(t.Labels) == 0 {
			return time.Time{}, false // any label: a happening
		}
		for _, l := range t.Labels {
			if !pr.HasLabel(l) {
				return time.Time{}, true
			}
			at := pr.Last(TimelineLabeled, l)
			if at.IsZero() {
				at = pr.CreatedAt // on the PR, but its event is beyond what was read
			}
			if at.After(since) {
				since = at
			}
		}
		return since, true
	}
	return time.Time{}, false
}

// startedSince reports whether pipeline has started a run since its trigger last held
// from since on.
func (e *eval) startedSince(pipeline string, since time.Time) bool {
	for _, r := range e.runsOf(pipeline) {
		if r.Parent != "" {
			continue // a sub-pipeline's run was not started by the trigger
		}
		at := r.TriggerAt
		if at.IsZero() {
			at = r.StartedAt
		}
		if !at.Before(since) {
			return true
		}
	}
	return false
}

// runsOf returns the record of every run of pipeline the state remembers: the runs in
// it, and the finished runs that left it (State.Past).
func (e *eval) runsOf(pipeline string) []PastRun {
	var out []PastRun
	for _, p := range e.st.Past {
		if p.Pipeline == pipeline {
			out = append(out, p)
		}
	}
	for _, r := range e.st.Runs {
		if r.Pipeline == pipeline {
			out = append(out, r.Past())
		}
	}
	return out
}

// noLongerMatches says why a run's subject no longer meets the conditions of its
// pipeline's trigger that must keep holding (its base branch, its author), or "".
func (e *eval) noLongerMatches(p *lang.Pipeline) string {
	pr, t := e.facts.PR, p.Trigger
	if pr.State != PROpen {
		return ""
	}
	if t.BaseBranch != "" && pr.BaseRef != t.BaseBranch {
		return fmt.Sprintf("the base branch changed to %q; pipeline %q runs on pull requests into %q", pr.BaseRef, p.Name, t.BaseBranch)
	}
	if t.Author != "" && !strings.EqualFold(pr.Author, t.Author) {
		return fmt.Sprintf("the author is %q; pipeline %q runs on pull requests by %q", pr.Author, p.Name, t.Author)
	}
	return ""
}

func (e *eval) started(pipeline, key string) bool {
	for _, r := range e.runsOf(pipeline) {
		if key != "" && r.TriggerKey == key {
			return true
		}
	}
	return false
}

func (e *eval) active(pipeline string) *Run {
	for _, r := range e.st.Runs {
		if r.Pipeline == pipeline && !r.Status.Final() && r.Parent == "" {
			return r
		}
	}
	return nil
}

func (e *eval) start(p *lang.Pipeline, in Input, since time.Time, why string) {
	n := e.nextRunNumber(p.Name) // run_number.go
	run := &Run{
		ID:         fmt.Sprintf("%s/%d/%d", p.Name, e.facts.PR.Number, n),
		Pipeline:   p.Name,
		ConfigOID:  e.cfg.BlobOID,
		Subject:    e.subject(),
		Status:     RunRunning,
		Stages:     map[string]*StageRun{},
		TriggerKey: in.Key,
		TriggerAt:  since,
		StartedAt:  e.now,
		UpdatedAt:  e.now,
	}
	e.st.Runs = append(e.st.Runs, run)
	if e.st.Subject == "" {
		e.st.Subject = run.Subject
	}
	e.logf("run %s %s", run.ID, why)
	if what := unsupportedPipeline(p); what != "" {
		e.finish(run, RunFailed, lang.TargetFail, "not supported yet: "+what)
		return
	}
	e.noteHead(run)
	e.initContext(p, run)
	e.initVariables(p, run) // step_variables.go
	if len(p.Stages) == 0 {
		e.finish(run, RunCompleted, lang.TargetComplete, "the pipeline has no stages")
		return
	}
	e.enter(run, "", p.Stages[0].ID, why)
}

// advanceAll moves every unfinished run as far as the facts allow, higher `priority`
// first (file order among equals). Once a run asks for effects — or, in Settle, has
// just had one refused — the runs after it wait for the next round, so that they see
// what it did: a hold placed by a higher-priority pipeline wins over a merge by a lower
// one, and a hold that could not be placed holds everything after it.
func (e *eval) advanceAll() {
	type entry struct {
		run *Run
		p   *lang.Pipeline
	}
	e.reapChildren() // step_pipeline.go
	defer e.reapChildren()
	rank := map[string]int{}
	for i, p := range e.cfg.Pipelines {
		rank[p.Name] = i
	}
	var order []entry
	for _, run := range e.st.Runs {
		// Final runs stay in the order only to hold back the runs after one whose
		// effect was just refused.
		// A sub-pipeline's run is advanced by its parent's stage (step_pipeline.go).
		if p := e.cfg.PipelineFor(run); p != nil && run.Parent == "" && (!run.Status.Final() || e.refusedDeep(run)) {
			order = append(order, entry{run, p})
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i].p, order[j].p
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		return rank[a.Name] < rank[b.Name]
	})
	for i, en := range order {
		if e.refusedDeep(en.run) {
			e.logf("runs after %s wait: its effect was refused", en.run.ID)
			return
		}
		// A run whose effect is in flight (see reconcile) waits, and so do the runs after it.
		if it, ok := e.openIntentDeep(en.run); ok {
			if rest := len(order) - i - 1; rest > 0 {
				e.logf("%d %s after %s wait for the outcome of %s", rest, plural(rest, "run", "runs"), en.run.ID, it.Key)
			}
			return
		}
		before := len(e.effects)
		e.advanceRun(en.p, en.run)
		if len(e.effects) > before {
			if rest := len(order) - i - 1; rest > 0 {
				e.logf("%d %s after %s wait for its effects", rest, plural(rest, "run", "runs"), en.run.ID)
			}
			return
		}
	}
}

// advanceRun moves one run until it waits, asks for effects, or ends. What bounds it
// is revisits of a stage within this evaluation (see moveGuard), not the number of stages.
func (e *eval) advanceRun(p *lang.Pipeline, run *Run) {
	g := e.newMoveGuard(p, run)
	defer e.followOthers(p, run) // step_multipr.go
	for e.advance(p, run) {
		if run.Status.Final() {
			return
		}
		if why := g.entered(run); why != "" {
			e.finish(run, RunFailed, lang.TargetFail, why)
			return
		}
	}
}

// advance evaluates the current stage of run once and reports whether it moved.
func (e *eval) advance(p *lang.Pipeline, run *Run) bool {
	if run.Status.Final() || run.Status == RunEscalated {
		return false // an escalated run waits for a person's command
	}
	stage := p.Stage(run.Stage)
	if stage == nil {
		e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("stage %q is not in pipeline %q", run.Stage, p.Name))
		return false
	}
	if what := unsupportedStage(stage); what != "" {
		e.finish(run, RunFailed, lang.TargetFail, "not supported yet: "+what)
		return false
	}
	if e.enterCondition(p, run, stage) { // step_condition.go
		return true
	}
	if moved, stop := e.due(p, run, stage); stop {
		return moved
	}
	if moved, done := e.issueStage(p, run, stage); done { // step_issue.go
		return moved
	}
	switch stage.Type {
	case lang.StageGate:
		return e.gate(p, run, stage)
	case lang.StageAgent:
		return e.agent(p, run, stage)
	case lang.StageHuman:
		return e.human(p, run, stage)
	case lang.StageDelay:
		return e.delayWait(run, stage)
	case lang.StagePipeline:
		return e.subPipeline(p, run, stage) // step_pipeline.go
	case lang.StageWebhook:
		return e.webhook(p, run, stage) // step_webhook.go
	case lang.StageParallel:
		return e.parallel(p, run, stage) // step_parallel.go
	}
	return e.action(p, run, stage)
}
