package core

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// What counts at a human stage now. Each way people act is judged on today's facts by the
// rules of authority: who did it (their permission and group today, never an author of
// the run's changes), and on which head and base.

// disowned says that comment c does not count: someone other than its author edited it.
func Disowned(c model.IssueComment) string {
	return fmt.Sprintf("comment %d by %s was edited by %s, so it is neither a command nor %s's action", c.ID, c.Author, c.EditedBy, c.Author)
}

// HumanCount returns the people whose action counts for the stage now, how many it needs,
// and notes on actions that do not count. sr is the stage's record (its approvals, when it
// was entered); the merge guard passes an empty one for a stage the run has not entered.
func (e *Eval) HumanCount(run *model.Run, stage *lang.Stage, sr *model.StageRun) (who []string, need int, notes []string) {
	need = max(stage.Count, 1)
	seen := map[string]bool{}
	add := func(login string) {
		if k := strings.ToLower(login); !seen[k] {
			seen[k] = true
			who = append(who, login)
		}
	}
	switch stage.WaitFor {
	case lang.WaitApproval:
		notes = e.countApprovals(run, stage, sr, add)
	case lang.WaitComment:
		notes = e.countComments(run, stage, sr, add)
	case lang.WaitLabel:
		need = 1
		notes = e.humanLabel(run, stage, add)
	case lang.WaitDismiss:
		need = 1
		notes = e.humanDismiss(run, stage, add)
	}
	return who, need, notes
}

// HumanHolds reports whether human stage s of run holds on today's facts, as the merge
// guard asks, and otherwise why not: what people gave there counts now, or the stage's
// attempt was left by a `/pipeline skip` that still counts.
func (e *Eval) HumanHolds(run *model.Run, s *lang.Stage) (bool, string) {
	sr := run.Stages[s.ID]
	if sr == nil {
		sr = &model.StageRun{EnteredAt: e.Now} // not entered: nothing given at it counts by time
	}
	who, need, notes := e.HumanCount(run, s, sr)
	if len(who) >= need {
		return true, ""
	}
	if sk := sr.Skipped; sk != nil {
		why := e.MayCommandAs(sk.Login)
		if why == "" && e.IsAuthor(run, sk.Login) {
			why = sk.Login + " is an author of the change"
		}
		if why == "" {
			why = e.approvalOutdated(run, s, *sk, model.CmdSkip)
		}
		if why == "" {
			return true, ""
		}
		notes = append(notes, "the /pipeline skip by "+sk.Login+" no longer counts: "+why)
	}
	msg := fmt.Sprintf("it has %d of %d", len(who), need)
	if len(notes) > 0 {
		msg += "; " + strings.Join(notes, "; ")
	}
	return false, msg
}

// countApprovals counts the approving reviews of the run's pull request and the
// `/pipeline approve` commands given at this attempt of the stage.
func (e *Eval) countApprovals(run *model.Run, stage *lang.Stage, sr *model.StageRun, add func(string)) (notes []string) {
	for _, r := range model.LatestReviews(e.reviewsOf(run)) { // the run's pull request
		if r.State != model.ReviewApproved {
			continue
		}
		switch {
		case e.Facts.IsAgent(r.Author):
			notes = append(notes, r.Author+" is an agent, not a person")
		case r.IsBot:
			notes = append(notes, r.Author+" is an app")
		case e.Facts.Contributed(e.RunPR(run), r.Author):
			notes = append(notes, r.Author+" wrote commits of it, so does not approve it")
		case !e.Allowed(run, stage, r.Author, r.CanPush):
			notes = append(notes, r.Author+" does not count here")
		case e.reviewOutdated(run, stage, r) != "":
			notes = append(notes, r.Author+"'s approval "+e.reviewOutdated(run, stage, r))
		case StaleReview(sr, r):
			notes = append(notes, r.Author+"'s approval is stale ("+sr.Stale.Why+")")
		default:
			add(r.Author)
		}
	}
	for _, a := range sr.Approvals {
		switch why := e.approvalOutdated(run, stage, a, model.CmdApprove); {
		case !e.Allowed(run, stage, a.Login, false):
			notes = append(notes, a.Login+"'s /pipeline approve no longer counts: "+a.Login+" is not "+e.WhoCan(stage)+" today")
		case why != "":
			notes = append(notes, a.Login+"'s /pipeline approve "+why)
		default:
			add(a.Login)
		}
	}
	return notes
}

// countComments counts the comments written since the stage was entered (matching its
// pattern) by people who count, on the current head and base. A comment someone else
// edited is not its author's word.
func (e *Eval) countComments(run *model.Run, stage *lang.Stage, sr *model.StageRun, add func(string)) (notes []string) {
	var re *regexp.Regexp
	if stage.Pattern != "" {
		re, _ = regexp.Compile(stage.Pattern) // checked at load
	}
	for _, c := range e.Facts.PR.Comments {
		if !c.CreatedAt.After(sr.EnteredAt) || !model.CountsAsHuman(c, e.Facts) || IsCommand(c.Body) {
			continue
		}
		if re != nil && !re.MatchString(c.Body) {
			continue
		}
		switch why := e.OutdatedAt(run, stage, c.CreatedAt); {
		case c.Disowned():
			notes = append(notes, Disowned(c))
		case !e.Allowed(run, stage, c.Author, false):
		case why != "":
			notes = append(notes, c.Author+"'s comment was "+why)
		default:
			add(c.Author)
		}
	}
	return notes
}
