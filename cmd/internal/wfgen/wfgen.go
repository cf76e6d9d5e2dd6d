// Package wfgen is the `on:` block a config needs of the workflow that runs the action: every
// event and activity type some part of the config reacts to, and nothing more, so that GitHub
// starts no job (a billed minute, 5–20 s, a read) for an event that cannot matter. Each event
// the block lists comes with why, the part of the config that needs it.
package wfgen

import (
	"regexp"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// Need is an event the action's workflow must listen to: its activity types (none: the event
// has none to list), and why.
type Need struct {
	Event string
	Types []string
	Why   string
	// Workflows are the workflows whose end workflow_run listens to.
	Workflows []string
	// Branches are the branches push listens to; none: every branch but the state branch's
	// and the merge queue's.
	Branches []string
}

// Reads are what the text of a config may read of a subject besides what its structure says:
// the expressions and templates are read as text, so that a word in a comment keeps an event
// in the block (a job too many) and never leaves one out (an event missed).
var reads = map[string]*regexp.Regexp{
	"labels": regexp.MustCompile(`(?i)\blabel`),
	"text":   regexp.MustCompile(`(?i)\b(title|body|base)`),
	"draft":  regexp.MustCompile(`(?i)\bdraft`),
}

// Needs are the events cfg, whose files' text is src, needs the action's workflow to listen
// to, in the order the block lists them. workflowName is the name (`name:`) of the workflow
// in file (an agent's `workflow:`), which workflow_run lists; ci are the names of the CI
// workflows whose checks the ci_status conditions that name checks (not workflows) wait for.
func Needs(cfg *lang.Config, src string, workflowName func(file string) string, ci []string) []Need {
	u := usesOf(cfg, src, workflowName)
	for _, n := range ci {
		u.addWorkflow(n)
	}
	var out []Need
	if u.prs {
		out = append(out, Need{Event: "pull_request_target", Types: u.prTypes(), Why: "pull requests: " + strings.Join(u.prWhy, "; ")})
		if u.reviews {
			out = append(out, Need{Event: "pull_request_review", Types: []string{"submitted", "dismissed", "edited"}, Why: "reviews: " + strings.Join(u.reviewWhy, ", ")})
		}
	}
	if len(u.workflows) > 0 {
		out = append(out, Need{Event: "workflow_run", Types: []string{"completed"}, Why: "the end of CI and agents' workflows", Workflows: u.workflows})
	}
	if u.statuses {
		out = append(out, Need{Event: "status", Why: "a ci_status condition that names checks (a commit status may be one)"})
	}
	out = append(out, Need{Event: "issue_comment", Types: []string{"created"}, Why: u.commentWhy()})
	if u.issues {
		out = append(out, Need{Event: "issues", Types: u.issueTypes(), Why: "pipelines with scope: issue"})
	}
	if u.deploys {
		out = append(out, Need{Event: "deployment_status", Why: "a deployment condition"})
	}
	if u.keeps {
		out = append(out, Need{Event: "push", Why: "keep_up_to_date: a base branch that moves", Branches: u.bases})
	}
	out = append(out, Need{Event: "workflow_dispatch", Why: "a pipeline started by hand, as /pipeline start does"})
	return out
}

// uses is what a config uses that decides the events it needs.
type uses struct {
	prs, issues, reviews, statuses, deploys, comments bool
	// keeps: a pipeline has keep_up_to_date; bases are the base branches their triggers
	// name, nil when one names none (any branch may be a base).
	keeps, anyBase bool
	bases          []string
	// events are the "event.action" names triggers and on_events react to.
	events    map[string]bool
	merges    bool
	words     map[string]bool
	workflows []string
	prWhy     []string
	reviewWhy []string
}

func usesOf(cfg *lang.Config, src string, workflowName func(string) string) *uses {
	u := &uses{events: map[string]bool{}, words: map[string]bool{}}
	for w, re := range reads {
		u.words[w] = re.MatchString(src)
	}
	for _, p := range cfg.Pipelines {
		// An issue's run follows the pull requests it opens: pull request events matter to
		// every config.
		u.prs = true
		u.issues = u.issues || p.Scope == lang.ScopeIssue || p.Scope == lang.ScopeMultiPR || strings.HasPrefix(p.Trigger.Event, "issues.")
		u.events[p.Trigger.Event] = true
		u.words["labels"] = u.words["labels"] || len(p.Trigger.Labels) > 0
		u.words["draft"] = u.words["draft"] || p.Trigger.Draft != nil
		u.words["text"] = u.words["text"] || p.Trigger.BaseBranch != ""
		for _, r := range p.OnEvents {
			u.events[r.Event] = true
		}
		walk(p.Stages, u.stage)
		if p.KeepUpToDate != nil {
			u.keepUpToDate(p)
		}
	}
	if u.anyBase {
		u.bases = nil
	}
	for _, a := range cfg.Agents {
		if a.Workflow != "" {
			u.addWorkflow(workflowName(a.Workflow))
		}
	}
	return u
}

// keepUpToDate notes that p's pull requests are kept up to date as their base moves.
func (u *uses) keepUpToDate(p *lang.Pipeline) {
	u.keeps = true
	switch b := p.Trigger.BaseBranch; {
	case b == "":
		u.anyBase = true
	case !slices.Contains(u.bases, b):
		u.bases = append(u.bases, b)
	}
}

// stage notes what s uses.
func (u *uses) stage(s *lang.Stage) {
	switch {
	case s.Type == lang.StageHuman:
		u.review("human stages")
		u.comments = u.comments || s.WaitFor == "comment"
	case s.Type == lang.StageAgent:
		u.review("agents' reviews")
	case s.Type == lang.StageAction && s.Action == lang.ActionMergePR:
		u.merges = true
	}
	for _, c := range slices.Concat(append([][]lang.Condition{s.Conditions}, s.AnyOf...)...) {
		switch name := c.BuiltinCheck(); name {
		case "human_approved", "no_changes_requested", "codeowners_approved", "pr_approvals_met":
			u.review(name)
		case "deployment":
			u.deploys = true
		case "ci_status":
			w, ok := c.Eval.(interface{ Watches() ([]string, bool) })
			names, byWorkflow := []string(nil), false
			if ok {
				names, byWorkflow = w.Watches()
			}
			if !byWorkflow {
				u.statuses = true
				continue
			}
			for _, n := range names {
				u.addWorkflow(n)
			}
		}
	}
}

func (u *uses) review(why string) {
	u.reviews = true
	if !slices.Contains(u.reviewWhy, why) {
		u.reviewWhy = append(u.reviewWhy, why)
	}
}

func (u *uses) addWorkflow(name string) {
	if !slices.Contains(u.workflows, name) {
		u.workflows = append(u.workflows, name)
	}
}

// prTypes are the pull_request activity types the config needs: a pull request opened,
// reopened, pushed to and closed always (runs start, follow the head, end); the others
// only when something reads what they change.
func (u *uses) prTypes() []string {
	types := []string{"opened", "reopened", "synchronize"}
	u.prWhy = []string{"opened, reopened, pushed to and closed start, follow and end runs"}
	add := func(why string, ts ...string) {
		for _, t := range ts {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		u.prWhy = append(u.prWhy, why)
	}
	if u.words["labels"] || u.any("pull_request", "labeled", "unlabeled") {
		add("labels are read", "labeled", "unlabeled")
	}
	if u.words["text"] || u.any("pull_request", "edited") {
		add("the title, body or base is read", "edited")
	}
	if u.merges {
		add("a merge waits for a draft to be ready", "ready_for_review")
	}
	if u.words["draft"] || u.any("pull_request", "ready_for_review", "converted_to_draft") {
		add("drafts are read", "ready_for_review", "converted_to_draft")
	}
	return append(types, "closed")
}

// issueTypes are the issues activity types the config needs.
func (u *uses) issueTypes() []string {
	types := []string{"opened", "reopened"}
	if u.words["labels"] || u.any("issues", "labeled", "unlabeled") {
		types = append(types, "labeled", "unlabeled")
	}
	if u.any("issues", "edited") {
		types = append(types, "edited")
	}
	return append(types, "closed")
}

// any reports whether a trigger or on_events reacts to event with one of actions.
func (u *uses) any(event string, actions ...string) bool {
	for _, a := range actions {
		if u.events[event+"."+a] {
			return true
		}
	}
	return false
}

// commentsAll reports whether every comment matters (a human stage waits for one, or a
// trigger or on_events reacts to one), not only `/pipeline` commands.
func (u *uses) commentsAll() bool {
	return u.comments || u.events["issue_comment.created"] || u.events["issue_comment"]
}

func (u *uses) commentWhy() string {
	if u.commentsAll() {
		return "every comment: a human stage waits for one, or a trigger reacts to one"
	}
	return "`/pipeline` commands (the job's if: leaves other comments out)"
}

// walk calls f on every stage of stages and of their branches.
func walk(stages []*lang.Stage, f func(*lang.Stage)) {
	for _, s := range stages {
		f(s)
		walk(s.Branches, f)
	}
}
