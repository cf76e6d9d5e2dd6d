package settle

import (
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/human"
)

// Settle records outcome o of the effect of run's current stage s (or of a branch of it):
// the intent is settled, the effect recorded done or refused, and the stage's type decides.
func Settle(k Kernel, run *model.Run, s *lang.Stage, o model.Outcome) {
	if s.Type == lang.StageAgent {
		settleDispatch(k, run, s, o)
		return
	}
	run.Intents = model.DropIntent(run.Intents, o.Key) // its outcome is known now
	if o.Err == "" {
		run.Applied = model.AppendOnce(run.Applied, o.Key)
	} else {
		k.NoteRefused(run)
	}
	if !k.Settled(run, s, o) {
		k.Logf("run %s: outcome of %s: stage %q reads no outcome; ignored", run.ID, o.Key, s.ID)
	}
}

// Own records outcome o if a stage whose type reads its own effects' outcomes asked for
// it, and reports whether one did.
func Own(k Kernel, o model.Outcome) bool {
	run, s := current(k, func(run *model.Run, s *lang.Stage) bool {
		fx := k.Own(s)
		return fx != nil && fx.Owns(run, s, o.Key)
	})
	if run == nil {
		return false
	}
	fx := k.Own(s)
	run.Intents = model.DropIntent(run.Intents, o.Key)
	k.OwnDecided(run, s, func(c stage.Context) stage.Decision { return fx.Settle(c, run, s, o) })
	return true
}

// current is the first run not ended whose current stage, in its pipeline, is one of
// which; nil when none is.
func current(k Kernel, which func(run *model.Run, s *lang.Stage) bool) (*model.Run, *lang.Stage) {
	for _, run := range k.Runs() {
		if run.Status.Final() {
			continue
		}
		p := k.Config().PipelineFor(run)
		if p == nil {
			continue
		}
		if s := p.Stage(run.Stage); s != nil && which(run, s) {
			return run, s
		}
	}
	return nil, nil
}

// StageEffect records outcome o of an effect of a human stage (its on_enter message, a
// reminder, its request for reviews), and reports whether o was one.
func StageEffect(k Kernel, o model.Outcome) bool {
	run, stage, sr, suffix := findStageEffect(k, o.Key)
	if run == nil {
		return false
	}
	run.Intents = model.DropIntent(run.Intents, o.Key)
	stageEffectDone(k, run, stage, sr, suffix, o)
	return true
}

// reconcileStageEffect settles an intent of a human stage's comment found in the state,
// and reports whether it was one: the comment exists → done; else it is in flight until
// its invocation surely ended, and then asked for again if the stage still wants it.
func reconcileStageEffect(k Kernel, run *model.Run, it model.Intent) bool {
	r, stage, sr, suffix := findStageEffect(k, it.Key)
	if r != run {
		return false
	}
	if o, ok := k.Intents().Outcome(it.Key); ok {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		stageEffectDone(k, run, stage, sr, suffix, o)
		return true
	}
	if Performed(k.Facts(), it) != "" {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		stageEffectDone(k, run, stage, sr, suffix, model.Outcome{Key: it.Key})
		return true
	}
	if k.Now().Before(it.InFlightUntil()) {
		k.Logf("run %s: %s asked for at %s is in flight", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		return true
	}
	k.Intents().Unknown[it.Key] = it
	run.Intents = model.DropIntent(run.Intents, it.Key)
	k.Logf("run %s: intent %s: its outcome is unknown and the invocation that asked for it has ended; asked for again if still due", run.ID, it.Key)
	return true
}

// stageEffectDone records outcome o of the effect suffix of a human stage's attempt.
func stageEffectDone(k Kernel, run *model.Run, stage *lang.Stage, sr *model.StageRun, suffix string, o model.Outcome) {
	if human.Settled(run, stage, sr, suffix, o, k.Logf) {
		k.NoteRefused(run)
	}
}

// findStageEffect finds the run at a human stage whose current attempt key belongs to.
func findStageEffect(k Kernel, key string) (*model.Run, *lang.Stage, *model.StageRun, string) {
	var suffix string
	run, stage := current(k, func(run *model.Run, s *lang.Stage) bool {
		sr := run.Stages[run.Stage]
		if s.Type != lang.StageHuman || sr == nil {
			return false
		}
		var ok bool
		suffix, ok = strings.CutPrefix(key, human.Key(run, s, sr.Attempt, ""))
		return ok
	})
	if run == nil {
		return nil, nil, nil, ""
	}
	return run, stage, run.Stages[run.Stage], suffix
}
