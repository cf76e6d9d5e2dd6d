package doctor

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// actionJob is a job of a workflow with a step that runs the action: the conditions
// that may skip it and its concurrency.
type actionJob struct {
	id          string
	ifJob       string
	steps       []actionStep
	concurrency yaml.Node
}

// token is the step's `token` input as written ("" when it gives none).
type actionStep struct{ command, ifStep, token string }

// parseActionJobs reads the jobs of a workflow that run the action, and the workflow's
// own concurrency.
func parseActionJobs(text string) ([]actionJob, yaml.Node, error) {
	var doc struct {
		Concurrency yaml.Node `yaml:"concurrency"`
		Jobs        yaml.Node `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, yaml.Node{}, err
	}
	var out []actionJob
	for i := 0; i+1 < len(doc.Jobs.Content); i += 2 {
		var j struct {
			If          string    `yaml:"if"`
			Concurrency yaml.Node `yaml:"concurrency"`
			Steps       []struct {
				Uses string         `yaml:"uses"`
				If   string         `yaml:"if"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		}
		if err := doc.Jobs.Content[i+1].Decode(&j); err != nil {
			return nil, yaml.Node{}, err
		}
		job := actionJob{id: doc.Jobs.Content[i].Value, ifJob: j.If, concurrency: j.Concurrency}
		for _, s := range j.Steps {
			if !runsTheAction(s.Uses) {
				continue
			}
			cmd, _ := s.With["command"].(string)
			if cmd == "" {
				cmd = "run"
			}
			token, _ := s.With["token"].(string)
			job.steps = append(job.steps, actionStep{command: cmd, ifStep: s.If, token: strings.TrimSpace(token)})
		}
		if len(job.steps) > 0 {
			out = append(out, job)
		}
	}
	return out, doc.Concurrency, nil
}

// reliedEvent is an event (and its action, "" for none) the config relies on, and where.
type reliedEvent struct{ event, action, where string }

func (r reliedEvent) key() string {
	if r.action == "" {
		return r.event
	}
	return r.event + "." + r.action
}

// reviewChecks are the gate checks that read reviews: a review is what changes them.
var reviewChecks = []string{"human_approved", "pr_approvals_met", "no_changes_requested"}

// reliedEvents are the events the config acts on: its triggers, its on_events, and the
// events its human stages and review gates wait for.
func reliedEvents(cfg *lang.Config) []reliedEvent {
	var out []reliedEvent
	add := func(ev string, pos lang.Pos, what string) {
		name, action, _ := strings.Cut(ev, ".")
		out = append(out, reliedEvent{name, action, fmt.Sprintf("%s at %s", what, pos)})
	}
	for _, p := range cfg.Pipelines {
		if p.HasTrigger {
			add(p.Trigger.Event, p.Trigger.Pos, fmt.Sprintf("the trigger of pipeline %s", p.Name))
		}
		for _, r := range p.OnEvents {
			add(r.Event, r.Pos, fmt.Sprintf("on_events of pipeline %s", p.Name))
		}
		subject := "pull_request"
		if p.OnIssues() {
			subject = "issues"
		}
		walkStages(p.Stages, func(s *lang.Stage) {
			what := fmt.Sprintf("stage %s.%s", p.Name, s.ID)
			if s.Type == lang.StageHuman {
				switch s.WaitFor {
				case lang.WaitApproval:
					add("pull_request_review.submitted", s.Pos, what+" (wait_for: approval)")
				case lang.WaitDismiss:
					add("pull_request_review.dismissed", s.Pos, what+" (wait_for: dismiss)")
				case lang.WaitLabel:
					add(subject+".labeled", s.Pos, what+" (wait_for: label)")
				case lang.WaitComment:
					add("issue_comment.created", s.Pos, what+" (wait_for: comment)")
				}
			}
			for _, c := range s.AllConditions() {
				if slices.Contains(reviewChecks, c.BuiltinCheck()) {
					add("pull_request_review.submitted", c.Pos, what+" (check: "+c.BuiltinCheck()+")")
				}
			}
		})
	}
	return out
}

// workflowEvents are the workflow events that deliver a config's event: a pull_request.*
// event comes as pull_request_target (or pull_request).
func workflowEvents(event string) []string {
	if event == "pull_request" {
		return []string{"pull_request_target", "pull_request"}
	}
	return []string{event}
}

// defaultTypes are the activity types GitHub delivers for an `on:` entry without
// `types:`: every type, but for pull_request and pull_request_target.
var defaultTypes = map[string][]string{
	"pull_request":        {"opened", "synchronize", "reopened"},
	"pull_request_target": {"opened", "synchronize", "reopened"},
}

// types returns the activity types w's entry for event delivers, and whether they are
// GitHub's default (no `types:`); nil with false means every type.
func (w *workflow) types(event string) ([]string, bool) {
	if listed := w.listed(event, "types"); listed != nil {
		return listed, false
	}
	return defaultTypes[event], true
}

// delivery is how the action's workflows deliver one event: the first workflow that
// does, or why none does.
type delivery struct {
	by      string // the workflow that delivers it
	unsure  string // an `if:` that may skip it, not decided (only the event's name and action are known)
	missing string // why no workflow delivers it
	fix     string
}

// deliver looks for a job of runs that runs the action on the event r.
func deliver(runs []*workflow, r reliedEvent) delivery {
	var d delivery
	for _, w := range runs {
		for _, ev := range workflowEvents(r.event) {
			if _, ok := w.on[ev]; !ok {
				continue
			}
			if types, byDefault := w.types(ev); r.action != "" && types != nil && !slices.Contains(types, r.action) {
				if d.missing == "" {
					d.missing, d.fix = typesMissing(w, ev, r.action, types, byDefault)
				}
				continue
			}
			ctx := ghContext{"github.event_name": {kind: ghStr, s: ev}}
			if r.action != "" {
				ctx["github.event.action"] = ghValue{kind: ghStr, s: r.action}
			}
			for _, j := range w.jobs {
				if !slices.ContainsFunc(j.steps, func(s actionStep) bool { return s.command == "run" }) {
					continue
				}
				if jobSkips(j, ctx) {
					if d.missing == "" {
						d.missing = fmt.Sprintf("the `if:` of job %s in %s skips it (%s)", j.id, w.path, jobIf(j))
						d.fix = fmt.Sprintf("let job %s of %s run on %s (change its `if:`)", j.id, w.path, r.key())
					}
					continue
				}
				if cond := jobIf(j); cond != "" && !definitelyTrue(j, ctx) {
					d.unsure = fmt.Sprintf("the `if:` of job %s in %s (%s)", j.id, w.path, cond)
				}
				return delivery{by: w.path, unsure: d.unsure}
			}
		}
	}
	if d.missing == "" {
		ev := workflowEvents(r.event)[0]
		d.missing = "no workflow that runs the action listens to " + ev
		d.fix = fmt.Sprintf("add `%s:` to the `on:` of %s", ev, runs[0].path)
		if r.action != "" {
			d.fix = fmt.Sprintf("add `%s: {types: [%s]}` to the `on:` of %s", ev, r.action, runs[0].path)
		}
	}
	return d
}

func typesMissing(w *workflow, ev, action string, types []string, byDefault bool) (string, string) {
	if byDefault {
		return fmt.Sprintf("`on.%s` of %s has no `types:`, and GitHub then delivers only %s", ev, w.path, strings.Join(types, ", ")),
			fmt.Sprintf("add `types: [%s, %s]` to `on.%s` of %s", strings.Join(types, ", "), action, ev, w.path)
	}
	return fmt.Sprintf("`on.%s.types` of %s lists only %s", ev, w.path, strings.Join(types, ", ")),
		fmt.Sprintf("add %s to `on.%s.types` of %s", action, ev, w.path)
}

// jobSkips reports whether the job's `if:`, or that of every step of it that runs the
// action for an event, is false for the event.
func jobSkips(j actionJob, ctx ghContext) bool {
	if definitelyFalse(j.ifJob, ctx) {
		return true
	}
	for _, s := range j.steps {
		if s.command == "run" && !definitelyFalse(s.ifStep, ctx) {
			return false
		}
	}
	return true
}

func definitelyTrue(j actionJob, ctx ghContext) bool {
	t, known := evalOrTrue(j.ifJob, ctx)
	if !known || !t {
		return false
	}
	for _, s := range j.steps {
		if t, known := evalOrTrue(s.ifStep, ctx); s.command == "run" && known && t {
			return true
		}
	}
	return false
}

func evalOrTrue(text string, ctx ghContext) (bool, bool) {
	if strings.TrimSpace(text) == "" {
		return true, true
	}
	return evalGitHubExpr(text, ctx).truth()
}

// jobIf is the condition on the job and its action step, as written.
func jobIf(j actionJob) string {
	var out []string
	if j.ifJob != "" {
		out = append(out, "job: "+j.ifJob)
	}
	for _, s := range j.steps {
		if s.command == "run" && s.ifStep != "" {
			out = append(out, "step: "+s.ifStep)
		}
	}
	return strings.Join(out, "; ")
}
