package core

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// DispatchKey is the key of the dispatch effect of run's current attempt of stage.
func DispatchKey(run *model.Run, stage *lang.Stage) string {
	return fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, run.Stages[stage.ID].Attempt, model.EffectDispatch)
}

// DispatchWriteAhead reports whether a dispatch of kind must be saved as an intent
// before it is performed: GitHub deduplicates adding a label or an assignee, nothing else.
func DispatchWriteAhead(kind string) bool {
	return kind != lang.DispatchLabel && kind != lang.DispatchAssign
}

// ReportHint is the line a comment dispatch ends with: how the agent reports back.
func ReportHint(run *model.Run, stage *lang.Stage, attempt int, nonce string) string {
	return fmt.Sprintf("<sub>Report back with `pipeline-action report --run %s --stage %s --attempt %d --nonce %s --verdict <verdict>`.</sub>",
		run.ID, stage.ID, attempt, nonce)
}

// AgentContext is what the `context` input of a dispatch holds: the run's context, the
// stage's `context:` over it, and the stage's `config:` under "config".
func (e *Eval) AgentContext(stage *lang.Stage, env lang.Env) (map[string]any, error) {
	out := map[string]any{}
	if c, ok := env["context"].(map[string]any); ok {
		for k, v := range c {
			out[k] = v
		}
	}
	for _, kv := range stage.Context {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			return nil, fmt.Errorf("context %q: %v", kv.Key, err)
		}
		out[kv.Key] = v
	}
	if len(stage.Values) > 0 {
		cfg := map[string]any{}
		for _, kv := range stage.Values {
			v, err := lang.ValueOf(kv.Value, env)
			if err != nil {
				return nil, fmt.Errorf("config %q: %v", kv.Key, err)
			}
			cfg[kv.Key] = v
		}
		out["config"] = cfg
	}
	return out, nil
}

// StageAt finds the run standing at attempt of stage (a stage of its pipeline, or a branch
// of the parallel stage it stands at), or says why none does.
func (e *Eval) StageAt(runID, stageID string, attempt int) (*model.Run, *lang.Pipeline, *lang.Stage, string) {
	var run *model.Run
	for _, r := range e.St.Runs {
		if r.ID == runID {
			run = r
		}
	}
	if run == nil {
		for _, past := range e.St.Past {
			if past.ID == runID {
				return nil, nil, nil, fmt.Sprintf("the run is %s", past.Status)
			}
		}
		return nil, nil, nil, "no such run on " + e.Subject()
	}
	if run.Status.Final() {
		return nil, nil, nil, fmt.Sprintf("the run is %s", run.Status)
	}
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return nil, nil, nil, fmt.Sprintf("pipeline %q is no longer in the config", run.Pipeline)
	}
	if !run.At(stageID) || run.Stage != stageID && BranchOf(p.Stage(run.Stage), stageID) == nil {
		return nil, nil, nil, notAt(run, stageID)
	}
	stage := StageOrBranch(p, stageID)
	if stage == nil {
		return nil, nil, nil, fmt.Sprintf("%q is not an agent stage", stageID)
	}
	if sr := run.Stages[stageID]; sr == nil || sr.Attempt != attempt {
		cur := 0
		if sr != nil {
			cur = sr.Attempt
		}
		return nil, nil, nil, fmt.Sprintf("the stage is at attempt %d, not %d", cur, attempt)
	}
	return run, p, stage, ""
}
