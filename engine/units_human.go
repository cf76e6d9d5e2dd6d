package engine

import (
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/human"
)

func (c *stageContext) Authority() *authority.Rules { return c.e.Rules() }
func (c *stageContext) Refused() bool               { return c.e.WasRefused(c.run) }

func (g *guardCheck) Authority() *authority.Rules { return g.e.Rules() }
func (g *guardCheck) Run() *model.Run             { return g.run }

// settleStageEffect records outcome o of an effect of a human stage (its on_enter message,
// a reminder, its request for reviews), and reports whether o was one.
func (e *eval) settleStageEffect(o model.Outcome) bool {
	run, stage, sr, suffix := findStageEffect(e.St, e.Cfg, o.Key)
	if run == nil {
		return false
	}
	run.Intents = model.DropIntent(run.Intents, o.Key)
	e.stageEffectDone(run, stage, sr, suffix, o)
	return true
}

// reconcileStageEffect settles an intent of a human stage's comment found in the state,
// and reports whether it was one: the comment exists → done; else it is in flight until
// its invocation surely ended, and then asked for again if the stage still wants it.
func (e *eval) reconcileStageEffect(run *model.Run, it model.Intent) bool {
	r, stage, sr, suffix := findStageEffect(e.St, e.Cfg, it.Key)
	if r != run {
		return false
	}
	if o, ok := e.Outcome(it.Key); ok {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		e.stageEffectDone(run, stage, sr, suffix, o)
		return true
	}
	if e.Performed(it) != "" {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		e.stageEffectDone(run, stage, sr, suffix, model.Outcome{Key: it.Key})
		return true
	}
	if e.Now.Before(it.InFlightUntil()) {
		e.Logf("run %s: %s asked for at %s is in flight", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		return true
	}
	e.Intents.Unknown[it.Key] = it
	run.Intents = model.DropIntent(run.Intents, it.Key)
	e.Logf("run %s: intent %s: its outcome is unknown and the invocation that asked for it has ended; asked for again if still due", run.ID, it.Key)
	return true
}

// stageEffectDone records outcome o of the effect suffix of a human stage's attempt.
func (e *eval) stageEffectDone(run *model.Run, stage *lang.Stage, sr *model.StageRun, suffix string, o model.Outcome) {
	if human.Settled(run, stage, sr, suffix, o, e.Logf) {
		e.NoteRefused(run)
	}
}

// findStageEffect finds the run of st at a human stage whose current attempt key belongs to.
func findStageEffect(st *model.State, cfg *lang.Config, key string) (*model.Run, *lang.Stage, *model.StageRun, string) {
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		p := cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		sr := run.Stages[run.Stage]
		if stage == nil || stage.Type != lang.StageHuman || sr == nil {
			continue
		}
		if suffix, ok := strings.CutPrefix(key, human.Key(run, stage, sr.Attempt, "")); ok {
			return run, stage, sr, suffix
		}
	}
	return nil, nil, nil, ""
}
