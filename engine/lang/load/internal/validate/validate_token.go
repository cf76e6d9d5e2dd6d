package validate

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// checkTokenEvents warns where the config relies on an event that the action's own writes
// cause. GitHub starts no workflow for an event caused by a workflow's GITHUB_TOKEN (except
// workflow_dispatch and repository_dispatch), so under the default token:
//
//   - an agent dispatched by a comment or a label that a GitHub Actions workflow receives
//     (`listener: workflow`, the default) never runs;
//   - a trigger on issues.opened never sees the issues create_issue opens, on issues.closed
//     those close_issue closes, on pull_request.closed the merges of merge_pr;
//   - a trigger on pull_request.labeled or issues.labeled never sees a label the config
//     adds (an action, an `on_*: {label: …}` rule, a label dispatch), when it names that
//     label or names none; a pull_request.labeled trigger that names the label is
//     level-triggered, and starts late, on the pull request's next event, if one comes.
//
// An app's installation token lifts all of this, which the config cannot know: these are
// warnings, each saying so. Reactions (`on_events`) are not checked: they act on a run that
// the next event reconciles anyway. A label written as a template is not matched.
func checkTokenEvents(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	const fix = "unless the action runs with an app token (see docs/tokens.md)"
	for _, a := range cfg.Agents {
		if (a.Dispatch == lang.DispatchComment || a.Dispatch == lang.DispatchLabel) && a.Listener != lang.ListenerApp {
			f.warnf(a.Pos, "agent %q is dispatched by a %s that a GitHub Actions workflow receives (listener: workflow): a %s the action makes with GITHUB_TOKEN starts no workflow, so the agent never runs %s; dispatch it with `dispatch: workflow`, or say `listener: app` if a GitHub App receives it",
				a.Name, a.Dispatch, a.Dispatch, fix)
		}
	}
	writes := tokenWrites(cfg)
	for _, p := range cfg.Pipelines {
		if !p.HasTrigger {
			continue
		}
		t := p.Trigger
		switch t.Event {
		case "issues.opened", "issues.closed", "pull_request.closed":
			if w, ok := writes.by[t.Event]; ok {
				f.warnf(t.Pos, "pipeline %q starts on %s, and %s: GitHub starts no workflow for an event caused by the action's GITHUB_TOKEN, so those never start this pipeline %s",
					p.Name, t.Event, w, fix)
			}
		case "pull_request.labeled", "issues.labeled":
			w := writes.labelled(t.Labels)
			switch {
			case w == "":
			case len(t.Labels) > 0 && t.Event == "pull_request.labeled": // level-triggered (docs/language.md)
				f.warnf(t.Pos, "pipeline %q starts on %s, and %s: GitHub starts no workflow for an event caused by the action's GITHUB_TOKEN, so this pipeline starts only late, on the pull request's next event from someone else, if one comes, %s",
					p.Name, t.Event, w, fix)
			default:
				f.warnf(t.Pos, "pipeline %q starts on %s, and %s: GitHub starts no workflow for an event caused by the action's GITHUB_TOKEN, so that label never starts this pipeline %s",
					p.Name, t.Event, w, fix)
			}
		}
	}
	return f.result()
}

// actionWrites are the writes of a config that cause events: by event, the first write
// that causes it, in words; and the labels the config adds, with where.
type actionWrites struct {
	by     map[string]string
	labels []labelWrite
}

type labelWrite struct {
	name, where string
}

// labelled says which added label a labeled trigger with condition labels (none: any
// label) would see, in words; "" when none.
func (w actionWrites) labelled(labels []string) string {
	for _, l := range w.labels {
		if len(labels) == 0 {
			return fmt.Sprintf("the action adds label %q itself (%s)", l.name, l.where)
		}
		for _, want := range labels {
			if strings.EqualFold(want, l.name) {
				return fmt.Sprintf("the action adds label %q itself (%s)", l.name, l.where)
			}
		}
	}
	return ""
}

// tokenWrites collects the writes of cfg that cause events GitHub delivers to no workflow
// under GITHUB_TOKEN.
func tokenWrites(cfg *lang.Config) actionWrites {
	w := actionWrites{by: map[string]string{}}
	note := func(event, what string) {
		if _, ok := w.by[event]; !ok {
			w.by[event] = what
		}
	}
	addLabels := func(names []string, where string) {
		for _, n := range names {
			if n != "" && !strings.Contains(n, "{{") {
				w.labels = append(w.labels, labelWrite{n, where})
			}
		}
	}
	for _, a := range cfg.Agents {
		if a.Dispatch == lang.DispatchLabel {
			addLabels([]string{a.Label}, fmt.Sprintf("to dispatch agent %q at %s", a.Name, a.Pos))
		}
	}
	for _, p := range cfg.Pipelines {
		for _, list := range [][]lang.ActionItem{p.OnComplete, p.OnError} {
			for _, it := range list {
				where := fmt.Sprintf("%s of pipeline %q at %s", it.Action, p.Name, it.Pos)
				switch it.Action {
				case lang.ActionCreateIssue:
					note("issues.opened", "the action opens issues itself ("+where+")")
				case lang.ActionCloseIssue:
					note("issues.closed", "the action closes issues itself ("+where+")")
				case lang.ActionLabel:
					addLabels(addedByItem(it.Args), where)
				}
			}
		}
		eachStage(p, func(s, _ *lang.Stage) {
			where := fmt.Sprintf("stage %q of pipeline %q at %s", s.ID, p.Name, s.Pos)
			if s.Type == lang.StageAction {
				switch s.Action {
				case lang.ActionMergePR:
					note("pull_request.closed", "the action merges pull requests itself ("+where+")")
				case lang.ActionCreateIssue:
					note("issues.opened", "the action opens issues itself ("+where+")")
				case lang.ActionCloseIssue:
					note("issues.closed", "the action closes issues itself ("+where+")")
				case lang.ActionAddLabel, lang.ActionLabel:
					addLabels(s.Config.Labels, where)
				}
			}
			for _, r := range []*lang.Rule{s.OnTimeout, s.OnConflict, s.OnCIFailure, s.OnFailRule, s.OnAnyReject} {
				if r != nil {
					addLabels(r.Labels, where)
				}
			}
		})
	}
	return w
}

// addedByItem are the labels a `label:` item adds: its string or its list.
func addedByItem(v lang.Value) []string {
	switch v.Kind {
	case lang.KindString:
		return []string{v.Scalar}
	case lang.KindList:
		var out []string
		for _, x := range v.List {
			if x.Kind == lang.KindString {
				out = append(out, x.Scalar)
			}
		}
		return out
	}
	return nil
}
