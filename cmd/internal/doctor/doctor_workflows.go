package doctor

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
)

// workflow is what doctor reads of a workflow file: its name, the events it listens to
// (with their settings: workflow_run's workflows, workflow_dispatch's inputs) and the
// commands it runs the action with.
type workflow struct {
	path        string
	name        string               // `name:`, else the path, as workflow_run's workflows name it
	runName     string               // `run-name:`, as written
	on          map[string]yaml.Node // event → its settings (a null node when none)
	commands    []string             // the `command` of each step that runs the action ("run" when not given)
	jobs        []actionJob          // the jobs that run the action
	concurrency yaml.Node            // the workflow's `concurrency:`
}

// parseWorkflow reads a workflow file; an error when it is not one.
func parseWorkflow(f ghapi.WorkflowFile) (*workflow, error) {
	var doc struct {
		Name    string    `yaml:"name"`
		RunName string    `yaml:"run-name"`
		On      yaml.Node `yaml:"on"`
		Jobs    map[string]struct {
			Steps []struct {
				Uses string         `yaml:"uses"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if f.Truncated {
		return nil, fmt.Errorf("too large for GitHub to give its text")
	}
	if err := yaml.Unmarshal([]byte(f.Text), &doc); err != nil {
		return nil, err
	}
	w := &workflow{path: f.Path, name: doc.Name, runName: doc.RunName, on: map[string]yaml.Node{}}
	var err error
	if w.jobs, w.concurrency, err = parseActionJobs(f.Text); err != nil {
		return nil, err
	}
	if w.name == "" {
		w.name = f.Path
	}
	switch doc.On.Kind {
	case yaml.ScalarNode:
		w.on[doc.On.Value] = yaml.Node{}
	case yaml.SequenceNode:
		for _, n := range doc.On.Content {
			w.on[n.Value] = yaml.Node{}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(doc.On.Content); i += 2 {
			w.on[doc.On.Content[i].Value] = *doc.On.Content[i+1]
		}
	}
	for _, j := range doc.Jobs {
		for _, s := range j.Steps {
			if !runsTheAction(s.Uses) {
				continue
			}
			cmd, _ := s.With["command"].(string)
			if cmd == "" {
				cmd = "run"
			}
			w.commands = append(w.commands, cmd)
		}
	}
	return w, nil
}

// runsTheAction reports whether a step's uses: is this action: the repository's own
// (./) or any reference to a pipeline-action repository.
func runsTheAction(uses string) bool {
	repo, _, _ := strings.Cut(uses, "@")
	return uses == "./" || uses == "." || strings.HasSuffix(repo, "/pipeline-action")
}

// listed returns the list under key of event's settings (workflow_run's workflows).
func (w *workflow) listed(event, key string) []string {
	n, ok := w.on[event]
	if !ok || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			var out []string
			if n.Content[i+1].Kind == yaml.ScalarNode {
				return []string{n.Content[i+1].Value}
			}
			for _, v := range n.Content[i+1].Content {
				out = append(out, v.Value)
			}
			return out
		}
	}
	return nil
}

// inputs returns the names of workflow_dispatch's inputs.
func (w *workflow) inputs() []string {
	n := w.on["workflow_dispatch"]
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "inputs" {
			var out []string
			in := n.Content[i+1]
			for j := 0; j+1 < len(in.Content); j += 2 {
				out = append(out, in.Content[j].Value)
			}
			return out
		}
	}
	return nil
}

// readWorkflows reads and parses the workflows of branch, reporting a file that does not
// parse.
func (d *doctor) readWorkflows(ctx context.Context, branch string) ([]*workflow, bool) {
	files, err := d.client.WorkflowFiles(ctx, branch)
	if err != nil {
		d.add(findingProblem, "the workflows cannot be read: "+err.Error(), grantFix)
		return nil, false
	}
	var out []*workflow
	for _, f := range files {
		if ext := path.Ext(f.Path); ext != ".yml" && ext != ".yaml" {
			continue
		}
		w, err := parseWorkflow(f)
		if err != nil {
			d.add(findingProblem, fmt.Sprintf("workflow %s on %s does not parse: %v", f.Path, branch, err), "correct the file")
			continue
		}
		out = append(out, w)
	}
	return out, true
}

// checkWorkflows checks that the workflows running the action listen to every event the
// config needs, and that the agents' workflows take what the action dispatches.
func (d *doctor) checkWorkflows(ctx context.Context) {
	all, ok := d.readWorkflows(ctx, d.branch)
	if !ok {
		return
	}
	var runs, sweeps []*workflow
	for _, w := range all {
		if slices.Contains(w.commands, "run") {
			runs = append(runs, w)
		}
		if slices.Contains(w.commands, "sweep") {
			sweeps = append(sweeps, w)
		}
	}
	if len(runs) == 0 {
		d.add(findingProblem, "no workflow on "+d.branch+" runs the action (a step with uses: …/pipeline-action@… and no command, or command: run)",
			"add the pipelines workflow (docs/setup/pipelines.yml; docs/setup.md, step 3)")
	} else {
		d.checkEvents(runs, d.agentWorkflowNames(ctx))
		d.checkDelivery(runs, sweeps)
	}
	d.checkSweep(sweeps)
	d.checkMergeQueue(all)
	d.checkConcurrency(all)
	d.checkUpdateToken(all)
	d.checkKeepUpToDate(all)
}

// needEvent is an event the action's workflow must listen to, and why.
type needEvent struct{ event, why string }

// eventsNeeded are the events the config needs the action's workflow to listen to.
func eventsNeeded(cfg *lang.Config) []needEvent {
	var out []needEvent
	prs, issues, comments, deploys := false, false, false, false
	for _, p := range cfg.Pipelines {
		if p.Scope == lang.ScopeIssue {
			issues = true
		} else {
			prs = true
		}
		walkStages(p.Stages, func(s *lang.Stage) {
			comments = comments || s.Type == lang.StageHuman && s.WaitFor == "comment"
			for _, c := range slices.Concat(append([][]lang.Condition{s.Conditions}, s.AnyOf...)...) {
				deploys = deploys || c.BuiltinCheck() == "deployment"
			}
		})
	}
	if prs {
		out = append(out, needEvent{"pull_request_target", "pull requests opened, pushed to, labelled, closed"},
			needEvent{"pull_request_review", "reviews and approvals"})
	}
	if comments {
		out = append(out, needEvent{"issue_comment", "a human stage with wait_for: comment"})
	}
	if issues {
		out = append(out, needEvent{"issues", "pipelines with scope: issue"})
	}
	if deploys {
		out = append(out, needEvent{"deployment_status", "a deployment check"})
	}
	return out
}

// checkEvents checks the events of the action's workflows against the config's needs:
// the workflow_run list must name the CI workflows the gates name and the agents'.
func (d *doctor) checkEvents(runs []*workflow, agentNames []string) {
	listens := func(ev string) (string, bool) {
		for _, w := range runs {
			if _, ok := w.on[ev]; ok {
				return w.path, true
			}
			if ev == "pull_request_target" {
				if _, ok := w.on["pull_request"]; ok {
					return w.path + " (pull_request: on a fork's pull request its token is read-only)", true
				}
			}
		}
		return "", false
	}
	for _, n := range eventsNeeded(d.cfg) {
		if where, ok := listens(n.event); ok {
			d.add(findingOK, fmt.Sprintf("event %s (%s): %s listens to it", n.event, n.why, where), "")
			continue
		}
		d.add(findingProblem, fmt.Sprintf("event %s (%s): no workflow that runs the action listens to it", n.event, n.why),
			fmt.Sprintf("add `%s:` to the `on:` of %s (see docs/setup/pipelines.yml)", n.event, runs[0].path))
	}
	if _, ok := listens("issue_comment"); !ok {
		d.add(findingOK, "event issue_comment: not listened to, so `/pipeline` commands in comments are not read", "")
	}
	listed := map[string]bool{}
	for _, w := range runs {
		for _, name := range w.listed("workflow_run", "workflows") {
			listed[name] = true
		}
	}
	for _, name := range d.ciWorkflowNames() {
		d.checkListed(listed, name, "the CI workflow a ci_status condition names", runs[0].path)
	}
	for _, name := range agentNames {
		d.checkListed(listed, name, "an agent's workflow, whose end the action must see", runs[0].path)
	}
}

func (d *doctor) checkListed(listed map[string]bool, name, why, file string) {
	if listed[name] {
		d.add(findingOK, fmt.Sprintf("workflow_run lists %q (%s)", name, why), "")
		return
	}
	d.add(findingProblem, fmt.Sprintf("workflow_run does not list %q (%s): the action never hears that it ended", name, why),
		fmt.Sprintf("add %q to `on.workflow_run.workflows` of %s", name, file))
}

// ciWorkflowNames are the workflow names the ci_status conditions name (`workflows:`).
// Conditions that name checks (or nothing) are reported as unverified.
func (d *doctor) ciWorkflowNames() []string {
	var out []string
	for _, p := range d.cfg.Pipelines {
		walkStages(p.Stages, func(s *lang.Stage) {
			conds := slices.Clone(s.Conditions)
			for _, g := range s.AnyOf {
				conds = append(conds, g...)
			}
			for _, c := range conds {
				w, ok := c.Eval.(interface{ Watches() ([]string, bool) })
				if !ok {
					continue
				}
				names, byWorkflow := w.Watches()
				if byWorkflow {
					for _, n := range names {
						if !slices.Contains(out, n) {
							out = append(out, n)
						}
					}
					continue
				}
				d.add(findingUnverified, fmt.Sprintf("%s:%d:%d: ci_status names checks, not workflows: which workflows produce them is not known",
					c.Pos.File, c.Pos.Line, c.Pos.Col), "list the CI workflows that produce them in `on.workflow_run.workflows` (CI outside Actions: `status`)")
			}
		})
	}
	return out
}
