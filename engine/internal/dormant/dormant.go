package dormant

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// Enabled reports whether p may start on st's subject: what the subject's state says of
// it, else its `enabled:` (true unless the pipeline is dormant).
func Enabled(st *model.State, p *lang.Pipeline) bool {
	if on, ok := st.Enabled[p.Name]; ok {
		return on
	}
	return !p.Dormant
}

// Newly lists the pipelines of cfg that the subject's overrides after let start and before
// did not, in config order.
func Newly(cfg *lang.Config, before, after map[string]bool) []string {
	var out []string
	for _, p := range cfg.Pipelines {
		if Enabled(&model.State{Enabled: after}, p) && !Enabled(&model.State{Enabled: before}, p) {
			out = append(out, p.Name)
		}
	}
	return out
}

// Set records that pipeline p is enabled (on) or not on st's subject, and says what it
// did. A setting equal to the pipeline's own `enabled:` leaves nothing in the state.
func Set(st *model.State, p *lang.Pipeline, on bool) string {
	was := Enabled(st, p)
	if on == !p.Dormant {
		delete(st.Enabled, p.Name)
		if len(st.Enabled) == 0 {
			st.Enabled = nil
		}
	} else {
		if st.Enabled == nil {
			st.Enabled = map[string]bool{}
		}
		st.Enabled[p.Name] = on
	}
	switch {
	case was == on && on:
		return fmt.Sprintf("pipeline %s was enabled already", p.Name)
	case was == on:
		return fmt.Sprintf("pipeline %s was disabled already", p.Name)
	case on:
		return fmt.Sprintf("pipeline %s enabled: its trigger starts it on this subject", p.Name)
	}
	return fmt.Sprintf("pipeline %s disabled: its trigger starts nothing on this subject (a run already going goes on)", p.Name)
}

// PlanSet is a set_variable with `pipeline:` (or `workflow:`): value, computed over
// env, must be true or false.
func PlanSet(cfg *lang.Config, st *model.State, pipeline string, value lang.Value, env lang.Env) core.PlannedAction {
	p := cfg.Pipeline(pipeline)
	if p == nil {
		return core.PlannedAction{Err: fmt.Sprintf("set_variable enabled: there is no pipeline %q", pipeline)}
	}
	v, err := lang.ValueOf(value, env)
	if err != nil {
		return core.PlannedAction{Err: fmt.Sprintf("set_variable enabled of pipeline %q: %v", pipeline, err)}
	}
	on, ok := boolOf(v)
	if !ok {
		return core.PlannedAction{Err: fmt.Sprintf("set_variable enabled of pipeline %q: the value is %v, not true or false", pipeline, v)}
	}
	return core.PlannedAction{Done: Set(st, p, on)}
}

// boolOf reads v as a boolean: a bool, or the text a template gives for one.
func boolOf(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch x {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return false, false
}

// Command acts on `/pipeline enable <pipeline>` (on) or `/pipeline disable <pipeline>`
// and returns the reply: what it did, or why it did nothing.
func Command(cfg *lang.Config, st *model.State, name string, on bool) string {
	verb := model.CmdDisable
	if on {
		verb = model.CmdEnable
	}
	p := cfg.Pipeline(name)
	switch {
	case name == "":
		return fmt.Sprintf("`/pipeline %s`: name the pipeline: `/pipeline %s <pipeline>`. Nothing was changed.", verb, verb)
	case p == nil:
		return fmt.Sprintf("`/pipeline %s`: there is no pipeline %s. Nothing was changed.", verb, markdown.OneWord(name))
	case !p.HasTrigger:
		return fmt.Sprintf("`/pipeline %s`: pipeline %s is a sub-pipeline: it starts from its parent's stage. Nothing was changed.", verb, p.Name)
	}
	done := Set(st, p, on)
	return strings.ToUpper(done[:1]) + done[1:] + "."
}
