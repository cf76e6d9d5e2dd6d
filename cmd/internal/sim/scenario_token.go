package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"
)

// The token the simulated action runs with (scenario top-level `token:`). GitHub starts no
// workflow for an event caused by a workflow's GITHUB_TOKEN, except workflow_dispatch and
// repository_dispatch: with `token: github` (the default) nothing the action does — its
// merges, labels, issues, comments — reaches the action again or wakes an agent that a
// GitHub Actions workflow receives. With `token: app` (an installation token of a GitHub
// App, docs/scenarios.md) GitHub delivers those events as anyone's, and so does the
// simulator, right after the invocation that caused them.
const (
	scenarioTokenGitHub = "github"
	scenarioTokenApp    = "app"
	// maxCausedRounds bounds the events the action's own events cause in turn: past it the
	// action is answering itself forever.
	maxCausedRounds = 10
)

// checkScenarioToken checks the top-level `token:` (n is its node, nil when absent).
func checkScenarioToken(path string, sc *scenario, n *yaml.Node) error {
	switch sc.Token {
	case "", scenarioTokenGitHub, scenarioTokenApp:
		return nil
	}
	return errorAt(path, n, "\"token\" must be %q (the workflow's GITHUB_TOKEN, the default) or %q (a GitHub App's installation token), not %q",
		scenarioTokenGitHub, scenarioTokenApp, sc.Token)
}

// checkPrimaryUsed checks the top-level `primary_used:` (n is its node, nil when absent):
// what the action's identity has spent of its hour of REST requests ("core") and GraphQL
// points ("graphql"), which only counted limits (`primary_limits: true`) hold.
func checkPrimaryUsed(path string, sc *scenario, n *yaml.Node) error {
	if len(sc.PrimaryUsed) > 0 && !sc.PrimaryLimits {
		return errorAt(path, n, "\"primary_used\" needs \"primary_limits: true\"")
	}
	for k, v := range sc.PrimaryUsed {
		if (k != "core" && k != "graphql") || v < 0 {
			return errorAt(path, n, "\"primary_used\" maps \"core\" (REST requests) or \"graphql\" (points) to what is spent of the hour, not %q: %d", k, v)
		}
	}
	return nil
}

func (s *simulation) appToken() bool { return s.sc.Token == scenarioTokenApp }

// deliverCaused delivers, with an app token, the events the action's invocations caused
// since mark, and those that these cause in turn; with GITHUB_TOKEN it says what GitHub
// started no workflow for.
func (s *simulation) deliverCaused(ctx context.Context, mark ghfake.Mark) error {
	for round := 1; ; round++ {
		events := s.fake.CausedSince(mark, ghfake.BotLogin)
		if len(events) == 0 {
			return nil
		}
		what := describeEvents(events)
		if !s.appToken() {
			fmt.Fprintf(s.out, "   (GitHub starts no workflow for the action's own %s: it ran with GITHUB_TOKEN)\n", what)
			s.noteTokenHeads(events)
			return nil
		}
		if round > maxCausedRounds {
			return fmt.Errorf("the action's own events still cause events after %d rounds (%s): it keeps answering itself", maxCausedRounds, what)
		}
		fmt.Fprintf(s.out, "   the action's own %s, delivered (token: app)\n", what)
		mark = s.fake.Mark(s.sc.Repo)
		ds := s.fresh(s.ownWorkflowsRun(events))
		s.sent[0] = append(s.sent[0], ds...) // their subjects are the scenario's too (subjects)
		for _, d := range ds {
			if err := s.deliver(ctx, d); err != nil {
				return err
			}
		}
	}
}

// ownWorkflowsRun is events less those the action's workflows do not run on: the
// repository's workflow's decision when the simulation plays one (runsOn), else that of
// the workflows of docs/setup/, which have no push trigger (TestSetupAsWritten plays them)
// unless a pipeline keeps its pull requests up to date (keep_up_to_date: the workflow then
// runs on push, as docs/language.md says): otherwise a push of the action's app token starts
// the repository's CI on push, never the action.
func (s *simulation) ownWorkflowsRun(events []ghfake.Event) []ghfake.Event {
	if s.runsOn != nil {
		return s.triggered(events)
	}
	var out []ghfake.Event
	for _, ev := range events {
		if ev.Name == "push" && !runsOnPush(&s.branchOf, s.config, ev) {
			fmt.Fprintf(s.out, "   (the action's workflows do not run on %s)\n", describeEvents([]ghfake.Event{ev}))
			continue
		}
		out = append(out, ev)
	}
	return out
}

// runsOnPush reports whether the action's workflow runs on push event ev: when a pipeline
// keeps its pull requests up to date, on a push to any branch but the state branch and the
// merge queue's (docs/language.md's keep_up_to_date says so).
func runsOnPush(cache *branchCache, config []scenarioFile, ev ghfake.Event) bool {
	var p struct{ Ref string }
	_ = json.Unmarshal(ev.Payload, &p)
	branch := strings.TrimPrefix(p.Ref, "refs/heads/")
	state, keeps := cache.read(config)
	return keeps && branch != state && !strings.HasPrefix(branch, "gh-readonly-queue/")
}

// describeEvents names events as "pull_request.closed #7, issue_comment.created #7".
func describeEvents(events []ghfake.Event) string {
	var parts []string
	for _, ev := range events {
		var p struct {
			PullRequest *struct{ Number int } `json:"pull_request"`
			Issue       *struct{ Number int } `json:"issue"`
			Ref         string
		}
		_ = json.Unmarshal(ev.Payload, &p)
		name := ev.Name
		if ev.Action != "" {
			name += "." + ev.Action
		}
		switch {
		case p.PullRequest != nil:
			name += fmt.Sprintf(" #%d", p.PullRequest.Number)
		case p.Issue != nil:
			name += fmt.Sprintf(" #%d", p.Issue.Number)
		case ev.Name == "push":
			name += " to " + strings.TrimPrefix(p.Ref, "refs/heads/")
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, ", ")
}

// closePR is the close_pr step. A pull request the action merged is closed already: with
// GITHUB_TOKEN GitHub started no workflow for its closing, and with an app token its closed
// event was delivered when it merged.
func (s *simulation) closePR(repo string, v *prStep, deliver bool) ([]ghfake.Event, string, bool, error) {
	pr := s.fake.PR(repo, v.PR)
	if !pr.Merged || pr.MergedBy != ghfake.BotLogin {
		return []ghfake.Event{s.fake.ClosePR(repo, v.PR)}, fmt.Sprintf("close_pr #%d", v.PR), deliver, nil
	}
	if s.appToken() {
		return nil, "", false, fmt.Errorf("close_pr: #%d was merged by the action; with token: app its pull_request.closed was delivered then", v.PR)
	}
	return nil, fmt.Sprintf("close_pr #%d: the action merged it with GITHUB_TOKEN, so GitHub starts no workflow for its closing", v.PR), false, nil
}

// agentCanRun refuses a report from the agent of stage when that agent cannot have run:
// its dispatch is a comment or label that a GitHub Actions workflow receives, written by
// the action with GITHUB_TOKEN, which starts no workflow.
func (s *simulation) agentCanRun(stage string) error {
	if s.appToken() {
		return nil
	}
	cfg, err := engine.LoadFiles(configSources(s.config), gates.Default())
	if err != nil {
		return nil // the run path reports a config that does not load
	}
	for _, p := range cfg.Pipelines {
		for _, st := range p.Stages {
			for _, b := range append([]*lang.Stage{st}, st.Branches...) {
				ag := cfg.Agent(b.Agent)
				if b.ID != stage || b.Type != lang.StageAgent || ag == nil {
					continue
				}
				if (ag.Dispatch == lang.DispatchComment || ag.Dispatch == lang.DispatchLabel) && ag.Listener != lang.ListenerApp {
					return fmt.Errorf("report: agent %q of stage %q is dispatched by a %s that a GitHub Actions workflow receives; the action made it with GITHUB_TOKEN, which starts no workflow, so the agent never ran (give the scenario `token: app`, or the agent `listener: app` if a GitHub App receives it)",
						ag.Name, stage, ag.Dispatch)
				}
			}
		}
	}
	return nil
}
