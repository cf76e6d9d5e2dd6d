// Package validate holds the passes over a whole loaded config: they run once every
// pipeline, agent and group is known, and return errors and warnings with the position
// of the offending value. The loader runs Passes after a config has loaded without
// errors, and Partial over one that has.
package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// Error kinds of the validation passes. KindKey, KindValue and KindRef are words the
// loader uses too: a pass that finds a bad key, value or reference says it as the
// loader would have.
const (
	KindKey     = "key"
	KindValue   = "value"
	KindRef     = "ref"
	kindCycle   = "cycle"   // a sub-pipeline runs itself, directly or not
	kindNesting = "nesting" // sub-pipelines nest deeper than settings.max_nesting
	kindWebhook = "webhook" // a webhook calls a host the settings do not allow
	// KindWarning marks a finding that does not stop loading (an unreachable stage,
	// an unused sub-pipeline); `validate --strict` fails on it.
	KindWarning = "warning"
)

// findings collects the errors and warnings of one pass.
type findings struct {
	errs, warnings lang.ErrorList
}

func (f *findings) errorf(pos lang.Pos, kind, format string, args ...any) {
	if f.full() {
		return
	}
	f.errs = append(f.errs, &lang.Error{Pos: pos, Message: fmt.Sprintf(format, args...), Kind: kind})
}

// full says whether the pass has found more errors than are shown (see lang.MaxErrors); a
// pass checks it before working out a message, and stops.
func (f *findings) full() bool { return len(f.errs) > lang.MaxErrors }

func (f *findings) warnf(pos lang.Pos, format string, args ...any) {
	f.warnings = append(f.warnings, &lang.Error{Pos: pos, Message: fmt.Sprintf(format, args...), Kind: KindWarning})
}

func (f *findings) result() (errs, warnings lang.ErrorList) {
	f.errs.Sort()
	f.warnings.Sort()
	return f.errs, f.warnings
}

// eachStage calls fn for every stage of p in file order, and for the branches of a
// parallel stage right after it (with parent set).
func eachStage(p *lang.Pipeline, fn func(s, parent *lang.Stage)) {
	for _, s := range p.Stages {
		if s == nil {
			continue
		}
		fn(s, nil)
		for _, b := range s.Branches {
			if b != nil {
				fn(b, s)
			}
		}
	}
}

// UnknownName is the message for a reference to a name that is not defined:
// `unknown agent "x" in stage "y"` with a did-you-mean when a name is close, else the
// names there are. where says where the reference is written (it may be ""), since
// the model keeps the position of the stage rather than of each of its values;
// section is the top-level key where such names are defined ("agents").
func UnknownName(what, name, where, section string, known []string) string {
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if where != "" {
		msg += " in " + where
	}
	if s := lang.Suggest(name, known); s != "" {
		return fmt.Sprintf("%s; did you mean %q?", msg, s)
	}
	if len(known) == 0 {
		return fmt.Sprintf("%s; define it under %q", msg, section)
	}
	return fmt.Sprintf("%s; expected one of %s", msg, lang.QuoteList(known))
}

// UnknownPipeline is the message for a pipeline name cfg does not define: `unknown
// pipeline "x"`, with a did-you-mean or the names there are.
func UnknownPipeline(cfg *lang.Config, name string) string {
	return UnknownName("pipeline", name, "", "pipelines", pipelineNames(cfg))
}

// inStage says where a value of stage s is written: `"from" of stage "review"`, or
// `stage "review"` when key is "". A branch is named as such.
func inStage(key string, s, parent *lang.Stage) string {
	where := fmt.Sprintf("stage %q", s.ID)
	if parent != nil {
		where = fmt.Sprintf("branch %q of stage %q", s.ID, parent.ID)
	}
	if key == "" {
		return where
	}
	return fmt.Sprintf("%q of %s", key, where)
}

// pipelineNames returns the names of cfg's pipelines in file order.
func pipelineNames(cfg *lang.Config) []string {
	out := make([]string, 0, len(cfg.Pipelines))
	for _, p := range cfg.Pipelines {
		out = append(out, p.Name)
	}
	return out
}

// chain prints names as a path: "a" -> "b" -> "a". A path longer than lang.MaxListed
// names shows its two ends: "a" -> "b" -> … 96 more … -> "y" -> "a".
func chain(names []string) string {
	var b strings.Builder
	for i := 0; i < len(names); i++ {
		if i > 0 {
			b.WriteString(" -> ")
		}
		if len(names) > lang.MaxListed && i == lang.MaxListed/2 {
			skip := len(names) - lang.MaxListed
			fmt.Fprintf(&b, "… %d more …", skip)
			i += skip - 1
			continue
		}
		b.WriteString(strconv.Quote(names[i]))
	}
	return b.String()
}
