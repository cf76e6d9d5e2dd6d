package run

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// A dry invocation (the `dry_run` input, and `explain`) reads and evaluates every subject
// as any invocation does — the same read, the same engine, the same rounds — and differs
// only where it would write: each effect is recorded and taken as done (so that the
// rounds after it go on as they would), no intent and no state is saved, and the status
// comment it would write is rendered, not posted. Its client is read-only as well
// (ghapi.Options.ReadOnly), so a write this file forgot is refused before it is sent.

// dryRun is what a dry invocation would have done, subject by subject.
type dryRun struct {
	subjects []*drySubject
}

// drySubject is what one evaluation of a subject would have done.
type drySubject struct {
	Number  int
	Issue   bool
	Effects []model.Effect
	// Body is the human part of the status comment it would write; "" when it would
	// save nothing (no pipeline concerns the subject).
	Body string
	// Saves is the state it would save: its file on the state branch and the comment.
	Saves bool
	// State is the state the evaluation ended with; Log is what the engine said.
	State *model.State
	Log   []string
	// Config is the config of the evaluation.
	Config *lang.Config
}

// dryInput reads the `dry_run` input: true or false (default). Anything else is an
// error, so that a mistyped value never writes.
func (r *Runner) dryInput() error {
	if r.dry != nil {
		return nil // explain: dry whatever the input says
	}
	switch v := strings.ToLower(strings.TrimSpace(r.act.GetInput("dry_run"))); v {
	case "", "false":
		return nil
	case "true":
		r.dry = &dryRun{}
		r.act.Infof("pipeline-action: dry run: every event is evaluated and nothing is written; the log and the job summary say what would have been done")
		return nil
	default:
		return fmt.Errorf("input dry_run: %q is neither true nor false", v)
	}
}

// begin starts the record of subject number's evaluation.
func (d *dryRun) begin(number int, issue bool) *drySubject {
	s := &drySubject{Number: number, Issue: issue}
	d.subjects = append(d.subjects, s)
	return s
}

// current is the subject being evaluated.
func (d *dryRun) current() *drySubject {
	if len(d.subjects) == 0 {
		return d.begin(0, false)
	}
	return d.subjects[len(d.subjects)-1]
}

// performDry records effects in place of performing them, and takes each as done: what
// it would change is recorded in the facts, as performAll does.
func (r *Runner) performDry(facts *model.Facts, effects []model.Effect) []model.Outcome {
	cur := r.dry.current()
	outcomes := make([]model.Outcome, 0, len(effects))
	for _, e := range effects {
		cur.Effects = append(cur.Effects, e)
		r.act.Infof("pipeline-action: dry run: would %s", EffectText(e))
		applyToFacts(facts, e)
		outcomes = append(outcomes, model.Outcome{Key: e.Key})
	}
	return outcomes
}

// saveDry is save for a dry invocation: it renders the status comment the state would
// show and records it, and writes nothing.
func (r *Runner) saveDry(rd *reading, res model.Result, number int, branch string, saves bool) *subjectResult {
	cur := r.dry.current()
	cur.State, cur.Saves, cur.Config = res.State, saves, rd.cfg
	if !saves {
		r.act.Infof("pipeline-action: dry run: #%d: no pipeline concerns it; nothing would be saved", number)
		return nil
	}
	live, _ := state.Compact(res.State)
	body, err := state.Body(rd.cfg, live)
	if err != nil {
		body = "(the status comment could not be rendered: " + err.Error() + ")"
	}
	cur.Body = state.Human(body)
	r.act.Infof("pipeline-action: dry run: would save the state of #%d (%s on %s) and write its status comment",
		number, state.SubjectFile(rd.snap.Facts.Issue == nil, number), branch)
	out := &subjectResult{Number: number, Summary: cur.Body}
	if last := latest(res.State.Runs); last != nil {
		out.Status, out.Stage = string(last.Status), last.Stage
	}
	return out
}

// EffectText says what an effect does, for people: "add label ready to #7 (run-1/label/1/add_label)".
func EffectText(e model.Effect) string {
	on := fmt.Sprintf("#%d", e.Number)
	if e.Repo != "" {
		on = e.Repo + on
	}
	var what string
	switch e.Kind {
	case model.EffectMerge:
		what = fmt.Sprintf("merge %s (%s) at %.7s", on, orDefault(e.Method, "merge"), e.SHA)
		if e.Delete && e.HeadRef != "" {
			what += ", then delete its branch " + e.HeadRef
		}
	case model.EffectAddLabel:
		what = fmt.Sprintf("add %s to %s", labelList(e.Labels), on)
	case model.EffectRemoveLabel:
		what = fmt.Sprintf("remove %s from %s", labelList(e.Labels), on)
	case model.EffectLabel:
		what = fmt.Sprintf("on %s add %s, remove %s", on, labelList(e.Labels), labelList(e.Remove))
	case model.EffectComment:
		what = fmt.Sprintf("comment on %s: %q", on, firstLine(e.Body))
	case model.EffectDispatch:
		what = fmt.Sprintf("dispatch agent %s by %s for %s", e.Agent, orDefault(e.Dispatch, "workflow"), on)
		if e.Workflow != "" {
			what += " (workflow " + e.Workflow + ")"
		}
	case model.EffectWebhook:
		if e.Webhook != nil {
			what = "call " + e.Webhook.Method + " " + e.Webhook.URL
		}
	case model.EffectCreateIssue:
		what = fmt.Sprintf("create an issue %q", e.Title)
	case model.EffectRequestReviewers:
		what = fmt.Sprintf("request reviews of %s on %s", strings.Join(append(append([]string(nil), e.Reviewers...), e.Teams...), ", "), on)
	case model.EffectAssign:
		what = fmt.Sprintf("assign %s to %s", strings.Join(e.Assignees, ", "), on)
	}
	if what == "" {
		what = fmt.Sprintf("%s on %s", e.Kind, on)
	}
	return OneLine(what) + " (" + e.Key + ")"
}

func labelList(labels []string) string {
	if len(labels) == 0 {
		return "no label"
	}
	return Plural(len(labels), "label ", "labels ") + strings.Join(labels, ", ")
}

func firstLine(s string) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 80 {
		s, cut = string(r[:80]), true
	}
	if cut {
		s += "…"
	}
	return s
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// summary is the job summary's word on what a dry run would have done for subject number.
func (d *dryRun) summary(number int) string {
	var b strings.Builder
	b.WriteString("\n**Dry run: nothing was written.** The status above is the comment it would write.\n\n")
	n := 0
	for _, s := range d.subjects {
		if s.Number != number {
			continue
		}
		for _, e := range s.Effects {
			fmt.Fprintf(&b, "- dry run: would %s\n", markdown.InertInline(EffectText(e)))
			n++
		}
	}
	if n == 0 {
		b.WriteString("- dry run: would perform no effect\n")
	}
	return b.String() + "\n"
}
