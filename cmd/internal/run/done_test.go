package run

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"
)

// Once an effect merged the subject, the other runs' effects on it are held back, the
// merging run's own (and its sub-pipelines') go out, and so does what is not on it.
func TestDoneGuardHoldsEffectsOnADoneSubject(t *testing.T) {
	st := &model.State{Runs: []*model.Run{
		{ID: "auto-merge/7/1"},
		{ID: "release/7/1", Parent: "auto-merge/7/1/release"},
		{ID: "follow-up/7/1"},
	}}
	g := &doneGuard{number: 7}
	dispatch := model.Effect{Key: "follow-up/7/1/notes/1/dispatch", Run: "follow-up/7/1", Kind: model.EffectDispatch, Number: 7}
	if _, held := g.hold(st, dispatch); held {
		t.Fatal("an effect was held before anything made the subject done")
	}
	g.note(st, model.Effect{Key: "x/merge_pr", Run: "release/7/1", Kind: model.EffectMerge, Number: 9}, model.Outcome{})
	if g.by != "" {
		t.Fatalf("a merge of #9 made #7 done (by %q)", g.by)
	}
	g.note(st, model.Effect{Key: "y/merge_pr", Run: "release/7/1", Kind: model.EffectMerge, Number: 7}, model.Outcome{Err: "405", Unknown: true})
	if g.by != "auto-merge/7/1" || g.what != "merged" {
		t.Fatalf("a merge whose answer was lost: by %q, %q; want the top-level run auto-merge/7/1, merged", g.by, g.what)
	}
	o, held := g.hold(st, dispatch)
	if !held || o.Key != dispatch.Key || o.Err == "" {
		t.Fatalf("the other run's dispatch was not held: %+v %v", o, held)
	}
	for _, e := range []model.Effect{
		{Run: "follow-up/7/1", Kind: model.EffectAddLabel, Number: 7, Labels: []string{"x"}},
		{Run: "follow-up/7/1", Kind: model.EffectComment, Number: 7},
		{Run: "follow-up/7/1", Kind: model.EffectRequestReviewers, Number: 7},
	} {
		if _, held := g.hold(st, e); !held {
			t.Errorf("%s of another run on the merged #7 was sent", e.Kind)
		}
	}
	for _, e := range []model.Effect{
		{Run: "auto-merge/7/1", Kind: model.EffectComment, Number: 7},
		{Run: "release/7/1", Kind: model.EffectAddLabel, Number: 7},
		{Run: "follow-up/7/1", Kind: model.EffectWebhook, Number: 7},
		{Run: "follow-up/7/1", Kind: model.EffectCloseIssue, Number: 12},
	} {
		if _, held := g.hold(st, e); held {
			t.Errorf("%s of %s on #%d was held", e.Kind, e.Run, e.Number)
		}
	}
}

// Closing the subject issue makes it done; a refused merge does not.
func TestDoneGuardClosedIssue(t *testing.T) {
	st := &model.State{Runs: []*model.Run{{ID: "triage/12/1"}, {ID: "notes/12/1"}}}
	g := &doneGuard{number: 12}
	g.note(st, model.Effect{Run: "triage/12/1", Kind: model.EffectMerge, Number: 12}, model.Outcome{Err: "405 not mergeable"})
	if g.by != "" {
		t.Fatal("a refused merge made the subject done")
	}
	g.note(st, model.Effect{Run: "triage/12/1", Kind: model.EffectCloseIssue, Number: 12}, model.Outcome{})
	if _, held := g.hold(st, model.Effect{Run: "notes/12/1", Kind: model.EffectComment, Number: 12}); !held || g.what != "closed" {
		t.Fatalf("a comment on the closed issue #12 was sent (%q)", g.what)
	}
}
