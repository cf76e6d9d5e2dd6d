package sim

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"
)

// reportStep is what an agent's `report` call does: the agent's workflow (a
// workflow_dispatch run) runs the action with command: report. The run and attempt
// default to those of the run of the PR standing at the stage.
type reportStep struct {
	PR      int            `yaml:"pr"`
	Issue   int            `yaml:"issue"` // an issue's run: as pr
	Stage   string         `yaml:"stage"`
	Verdict string         `yaml:"verdict"`
	Outputs map[string]any `yaml:"outputs"`
	Run     string         `yaml:"run"`
	Attempt int            `yaml:"attempt"`
	// StateKey is the state_key the agent's workflow passes; default the scenario's.
	StateKey *string `yaml:"state_key"`
	// Noise adds to the outputs, per key, a string of that many characters that do not
	// compress: large outputs without pages of YAML.
	Noise map[string]int `yaml:"noise"`
	// Nonce is the nonce the report echoes; default the one the dispatch of that attempt
	// gave the agent.
	Nonce string `yaml:"nonce"`
	// Deliver false: the report's job never runs; later: it runs late.
	Deliver *bool `yaml:"deliver"`
}

// agentFailsStep ends the workflow run of the agent dispatched for the stage's current
// attempt without a report: GitHub sends its workflow_run.completed.
type agentFailsStep struct {
	PR         int    `yaml:"pr"`
	Stage      string `yaml:"stage"`
	Conclusion string `yaml:"conclusion"` // default failure
}

// dispatchExpect is an expectation on the dispatches of one agent, by any kind.
type dispatchExpect struct {
	Agent string `yaml:"agent"`
	Count *int   `yaml:"count"`
}

// writeFiles writes the scenario's files on the default branch.
func (s *simulation) writeFiles() error {
	for _, p := range slices.Sorted(maps.Keys(s.sc.Files)) {
		src, err := os.ReadFile(s.sc.Rel(s.sc.Files[p]))
		if err != nil {
			return fmt.Errorf("%s: files: %w", s.sc.path, err)
		}
		s.fake.SetFile(s.sc.Repo, s.sc.DefaultBranch, p, string(src))
	}
	return nil
}

// at finds the run of pull request pr standing at stage (unfinished) — or at a parallel
// stage whose branch stage is open — and its attempt.
func (s *simulation) at(pr int, stage string) (*engine.Run, int, error) {
	subject := s.sc.Repo + "#" + strconv.Itoa(pr)
	for _, run := range s.runs() {
		if run.Subject == subject && run.At(stage) && !run.Status.Final() { // a stage, or an open branch of it
			return run, run.Stages[stage].Attempt, nil
		}
	}
	return nil, 0, fmt.Errorf("no unfinished run of #%d stands at stage %q", pr, stage)
}

// applyReport plays an agent's workflow that reports: a workflow_dispatch event whose
// job runs the action with command: report.
func (s *simulation) applyReport(v *reportStep) ([]ghfake.Event, string, bool, error) {
	if err := issueAlias(&v.PR, v.Issue, "report"); err != nil {
		return nil, "", false, err
	}
	if v.PR == 0 || v.Stage == "" || v.Verdict == "" {
		return nil, "", false, errors.New("report needs pr, stage and verdict")
	}
	if err := s.agentCanRun(v.Stage); err != nil {
		return nil, "", false, err
	}
	runID, attempt := v.Run, v.Attempt
	if runID == "" || attempt == 0 {
		run, n, err := s.at(v.PR, v.Stage)
		if err != nil {
			return nil, "", false, fmt.Errorf("report: %w (give run and attempt to report to a run that moved on)", err)
		}
		runID = cmp.Or(runID, run.ID)
		if attempt == 0 {
			attempt = n
		}
	}
	nonce := v.Nonce
	if nonce == "" {
		nonce = s.dispatchedNonce(runID, v.Stage, attempt)
	}
	with := map[string]string{"command": "report", "run": runID, "stage": v.Stage,
		"attempt": strconv.Itoa(attempt), "verdict": v.Verdict, "nonce": nonce}
	outputs, err := withNoise(v, runID, attempt)
	if err != nil {
		return nil, "", false, err
	}
	if outputs != nil {
		b, err := json.Marshal(outputs)
		if err != nil {
			return nil, "", false, fmt.Errorf("report: outputs: %w", err)
		}
		with["outputs"] = string(b)
	}
	if v.StateKey != nil {
		with["state_key"] = *v.StateKey
	}
	inputs := map[string]any{"run": runID, "stage": v.Stage, "attempt": strconv.Itoa(attempt), "nonce": nonce}
	ev := s.fake.WorkflowDispatchEvent(s.sc.Repo, "agent.yml", s.sc.DefaultBranch, ghfake.BotLogin, inputs)
	if s.with == nil {
		s.with = map[string]map[string]string{}
	}
	s.with[string(ev.Payload)] = with
	label := fmt.Sprintf("report %s from the agent of %s on #%d (run %s, attempt %d)", v.Verdict, v.Stage, v.PR, runID, attempt)
	return []ghfake.Event{ev}, label, deliverOn(v.Deliver), nil
}

// applyAgentFails ends the workflow run the stage's current attempt dispatched.
func (s *simulation) applyAgentFails(v *agentFailsStep) ([]ghfake.Event, string, bool, error) {
	run, attempt, err := s.at(v.PR, v.Stage)
	if err != nil {
		return nil, "", false, fmt.Errorf("agent_fails: %w", err)
	}
	ds := s.fake.Dispatches()
	for i := len(ds) - 1; i >= 0; i-- {
		d := ds[i]
		if d.Workflow != "" && d.Inputs["run"] == run.ID && d.Inputs["stage"] == v.Stage && d.Inputs["attempt"] == strconv.Itoa(attempt) {
			conclusion := cmp.Or(v.Conclusion, "failure")
			ev := s.fake.CompleteDispatch(s.sc.Repo, i, conclusion)
			return []ghfake.Event{ev}, fmt.Sprintf("agent_fails: the workflow run %q of %s on #%d ends %s without a report", d.RunName, v.Stage, v.PR, conclusion), true, nil
		}
	}
	return nil, "", false, fmt.Errorf("agent_fails: no workflow_dispatch for run %s, stage %s, attempt %d (agent_fails ends the run of an agent dispatched as a workflow)", run.ID, v.Stage, attempt)
}

// checkDispatches counts the dispatches of an agent in the fake's world: the
// workflow_dispatches of its workflow, the repository_dispatches of its event type, the
// comments carrying a dispatch marker of one of its stages, the times the action added
// its label.
func (s *simulation) checkDispatches(report func(bool, string, string, string), x dispatchExpect) {
	what := "dispatches of agent " + x.Agent
	cfg, err := engine.LoadFiles(configSources(s.config), gates.Default())
	if err != nil {
		report(false, what, "a config that loads", err.Error())
		return
	}
	ag := cfg.Agent(x.Agent)
	if ag == nil || x.Count == nil {
		report(false, what, "an agent of the config and a count", fmt.Sprintf("agent %q, count %v", x.Agent, x.Count))
		return
	}
	count := 0
	switch ag.Dispatch {
	case lang.DispatchWorkflow:
		for _, d := range s.fake.Dispatches() {
			if d.Workflow == ag.Workflow {
				count++
			}
		}
	case lang.DispatchRepositoryDispatch:
		for _, d := range s.fake.Dispatches() {
			if d.EventType == ag.EventType {
				count++
			}
		}
	case lang.DispatchComment:
		stages := map[string]bool{}
		for _, p := range cfg.Pipelines {
			for _, st := range p.Stages {
				for _, b := range append([]*lang.Stage{st}, st.Branches...) { // a parallel stage's branches too
					if b.Type == lang.StageAgent && b.Agent == ag.Name {
						stages[b.ID] = true
					}
				}
			}
		}
		for _, n := range s.subjects() {
			for _, c := range s.fake.Comments(s.sc.Repo, n) {
				for _, key := range engine.PostedEffects(c.Body) {
					if parts := strings.Split(key, "/"); len(parts) == 6 && parts[5] == string(engine.EffectDispatch) && stages[parts[3]] {
						count++
					}
				}
			}
		}
	case lang.DispatchLabel:
		// Each time the action added the label (adding a label already there is no dispatch).
		for _, n := range s.subjects() {
			count += s.fake.Labeled(s.sc.Repo, n, ghfake.BotLogin, ag.Label)
		}
	case lang.DispatchAssign:
		// Each time the action assigned the login (assigning it again is no dispatch).
		for _, n := range s.subjects() {
			count += s.fake.Assigned(s.sc.Repo, n, ghfake.BotLogin, ag.Assignee)
		}
	default:
		report(false, what, fmt.Sprint(*x.Count), fmt.Sprintf("not supported yet: counting %s dispatches", ag.Dispatch))
		return
	}
	report(count == *x.Count, what, fmt.Sprint(*x.Count), fmt.Sprint(count))
}

// dispatchedNonce is the nonce the dispatch of attempt of stage of run runID gave its
// agent, as the agent read it: the `nonce` input of that workflow or repository dispatch
// in the fake's record; for another kind of dispatch (a comment, a label), the one the
// state holds for that attempt, signed with the scenario's state key when it has one.
// "" when there is none (the report then carries none, and is refused).
func (s *simulation) dispatchedNonce(runID, stage string, attempt int) string {
	ds := s.fake.Dispatches()
	for i := len(ds) - 1; i >= 0; i-- {
		in := ds[i].Inputs
		if in["run"] == runID && in["stage"] == stage && in["attempt"] == strconv.Itoa(attempt) {
			if n, ok := in["nonce"]; ok {
				return fmt.Sprint(n)
			}
		}
	}
	for _, run := range s.runs() {
		sr := run.Stages[stage]
		if run.ID != runID || sr == nil || !strings.HasPrefix(sr.Nonce, strconv.Itoa(attempt)+"-") {
			continue
		}
		var signer engine.NonceSigner
		if k := s.stateKeys(); k.Set() {
			signer = k
		}
		return engine.SignedNonce(signer, run.Subject, run.ID, stage, sr.Nonce)
	}
	return ""
}
