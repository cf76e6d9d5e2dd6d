package authority

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// A human stage waiting for a label or a dismissed review: what it waits for counts only
// when someone who counts did it (a member of the stage's group, or without `from` anyone
// with write access; never an author of the run's changes), as the pull request's
// timeline tells — the actor of the latest LabeledEvent of the label, the actor of the
// latest ReviewDismissedEvent of a review — on the current head and base. Who did it
// unknown (the event is older than the timeline read, or GitHub names no actor) does not
// count either.

// LabelAdder returns who added label last and when, as the timeline tells, and whether
// the timeline holds such an event.
func LabelAdder(pr *model.PullRequest, label string) (string, time.Time, bool) {
	at := pr.Last(model.TimelineLabeled, label)
	actor, found := "", false
	for _, ev := range pr.Timeline {
		if ev.Kind == model.TimelineLabeled && lang.SameLabel(ev.Label, label) && ev.At.Equal(at) {
			actor, found = ev.Actor, true
		}
	}
	return actor, at, found
}

// Dismisser returns who last dismissed a review of reviewer and when, as the timeline
// tells.
func Dismisser(pr *model.PullRequest, reviewer string) (string, time.Time) {
	var last model.TimelineEvent
	for _, ev := range pr.Timeline {
		if ev.Kind == model.TimelineReviewDismissed && strings.EqualFold(ev.Label, reviewer) && !ev.At.Before(last.At) {
			last = ev
		}
	}
	return last.Actor, last.At
}

// humanLabel counts the stage's label when someone who counts added it.
func (r *Rules) humanLabel(run *model.Run, stage *lang.Stage, add func(string)) (notes []string) {
	l, ok := r.Facts.PR.Label(stage.WaitLabel)
	if !ok {
		return nil
	}
	by, at, found := LabelAdder(r.Facts.PR, l)
	switch {
	case !found || by == "":
		return []string{fmt.Sprintf("who added the label %s is not known (the timeline read does not show it)", l)}
	case !r.Allowed(run, stage, by, false):
		return []string{fmt.Sprintf("the label %s was added by %s, who does not count here", l, by)}
	}
	if why := r.OutdatedAt(run, stage, at); why != "" {
		return []string{fmt.Sprintf("the label %s added by %s was %s (remove it and add it again)", l, by, why)}
	}
	add(fmt.Sprintf("label %s added by %s", l, by))
	return nil
}

// humanDismiss counts a dismissal by someone who counts, once no review still requests
// changes.
func (r *Rules) humanDismiss(run *model.Run, stage *lang.Stage, add func(string)) (notes []string) {
	blocked := false
	var dismissed []string
	for _, rv := range model.LatestReviews(r.Facts.PR.Reviews) {
		switch rv.State {
		case model.ReviewChangesRequested:
			blocked = true
		case model.ReviewDismissed:
			dismissed = append(dismissed, rv.Author)
		}
	}
	if blocked {
		return nil
	}
	for _, reviewer := range dismissed {
		by, at := Dismisser(r.Facts.PR, reviewer)
		switch why := r.OutdatedAt(run, stage, at); {
		case by == "":
			notes = append(notes, fmt.Sprintf("who dismissed the review of %s is not known", reviewer))
		case !r.Allowed(run, stage, by, false):
			notes = append(notes, fmt.Sprintf("the review of %s was dismissed by %s, who does not count here", reviewer, by))
		case why != "":
			notes = append(notes, fmt.Sprintf("the review of %s was dismissed by %s %s", reviewer, by, why))
		default:
			add(fmt.Sprintf("the review of %s dismissed by %s", reviewer, by))
			return nil
		}
	}
	return notes
}

// HumanActors returns the people whose action at human stage s (whose record is sr, nil
// if not entered) may count on facts f, where rp is run's pull request: who, for reading
// the teams of the stage's group, and perms, those of them whose permission must be read
// (a review tells its author's).
func HumanActors(s *lang.Stage, sr *model.StageRun, f *model.Facts, run *model.Run, rp *model.PullRequest) (who, perms []string) {
	switch s.WaitFor {
	case lang.WaitApproval:
		for _, r := range model.LatestReviews(rp.Reviews) {
			onHead := r.CommitSHA == rp.HeadSHA || s.KeepOnPush
			if r.State == model.ReviewApproved && !r.IsBot && onHead && !strings.EqualFold(r.Author, f.PR.Author) {
				who = append(who, r.Author)
			}
		}
	case lang.WaitComment:
		for _, c := range f.PR.Comments {
			if (sr == nil || c.CreatedAt.After(sr.EnteredAt)) && model.CountsAsHuman(c, f) && !c.Disowned() && !model.IsCommand(c.Body) {
				perms = append(perms, c.Author)
			}
		}
	case lang.WaitLabel:
		if l, ok := f.PR.Label(s.WaitLabel); ok {
			if by, _, _ := LabelAdder(f.PR, l); by != "" {
				perms = append(perms, by)
			}
		}
	case lang.WaitDismiss:
		for _, r := range model.LatestReviews(f.PR.Reviews) {
			if r.State == model.ReviewDismissed {
				if by, _ := Dismisser(f.PR, r.Author); by != "" {
					perms = append(perms, by)
				}
			}
		}
	}
	if sr != nil {
		for _, a := range sr.Approvals {
			perms = append(perms, a.Login)
		}
		if sr.Skipped != nil {
			perms = append(perms, sr.Skipped.Login)
		}
	}
	return append(who, perms...), perms
}
