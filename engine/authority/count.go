package authority

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
func (r *Rules) HumanCount(run *model.Run, stage *lang.Stage, sr *model.StageRun) (who []string, need int, notes []string) {
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
		notes = r.countApprovals(run, stage, sr, add)
		if stage.From == lang.FromCodeOwners {
			return r.codeOwnersCount(run, who, notes)
		}
	case lang.WaitComment:
		notes = r.countComments(run, stage, sr, add)
	case lang.WaitLabel:
		need = 1
		notes = r.humanLabel(run, stage, add)
	case lang.WaitDismiss:
		need = 1
		notes = r.humanDismiss(run, stage, add)
	}
	return who, need, notes
}

// HumanHolds reports whether human stage s of run holds on today's facts, as the merge
// guard asks, and otherwise why not: what people gave there counts now, or the stage's
// attempt was left by a `/pipeline skip` that still counts.
func (r *Rules) HumanHolds(run *model.Run, s *lang.Stage) (bool, string) {
	sr := run.Stages[s.ID]
	if sr == nil {
		sr = &model.StageRun{EnteredAt: r.Now} // not entered: nothing given at it counts by time
	}
	who, need, notes := r.HumanCount(run, s, sr)
	if len(who) >= need {
		return true, ""
	}
	if sk := sr.Skipped; sk != nil {
		why := r.MayCommandAs(sk.Login)
		if why == "" && r.IsAuthor(run, sk.Login) {
			why = sk.Login + " is an author of the change"
		}
		if why == "" {
			why = r.approvalOutdated(run, s, *sk, model.CmdSkip)
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
func (r *Rules) countApprovals(run *model.Run, stage *lang.Stage, sr *model.StageRun, add func(string)) (notes []string) {
	for _, rv := range model.LatestReviews(r.reviewsOf(run)) { // the run's pull request
		if rv.State != model.ReviewApproved {
			continue
		}
		switch {
		case r.Facts.IsAgent(rv.Author):
			notes = append(notes, rv.Author+" is an agent, not a person")
		case rv.IsBot:
			notes = append(notes, rv.Author+" is an app")
		case r.Facts.Contributed(r.runPR(run), rv.Author):
			notes = append(notes, rv.Author+" wrote commits of it, so does not approve it")
		case !r.Allowed(run, stage, rv.Author, rv.CanPush):
			notes = append(notes, rv.Author+" does not count here")
		case r.reviewOutdated(run, stage, rv) != "":
			notes = append(notes, rv.Author+"'s approval "+r.reviewOutdated(run, stage, rv))
		case model.StaleReview(sr, rv):
			notes = append(notes, rv.Author+"'s approval is stale ("+sr.Stale.Why+")")
		default:
			add(rv.Author)
		}
	}
	for _, a := range sr.Approvals {
		switch why := r.approvalOutdated(run, stage, a, model.CmdApprove); {
		case !r.Allowed(run, stage, a.Login, false):
			notes = append(notes, a.Login+"'s /pipeline approve no longer counts: "+a.Login+" is not "+r.WhoCan(stage)+" today")
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
func (r *Rules) countComments(run *model.Run, stage *lang.Stage, sr *model.StageRun, add func(string)) (notes []string) {
	var re *regexp.Regexp
	if stage.Pattern != "" {
		re, _ = regexp.Compile(stage.Pattern) // checked at load
	}
	for _, c := range r.Facts.PR.Comments {
		if !c.CreatedAt.After(sr.EnteredAt) || !model.CountsAsHuman(c, r.Facts) || model.IsCommand(c.Body) {
			continue
		}
		if re != nil && !re.MatchString(c.Body) {
			continue
		}
		switch why := r.OutdatedAt(run, stage, c.CreatedAt); {
		case c.Disowned():
			notes = append(notes, Disowned(c))
		case !r.Allowed(run, stage, c.Author, false):
		case why != "":
			notes = append(notes, c.Author+"'s comment was "+why)
		default:
			add(c.Author)
		}
	}
	return notes
}

// WhoCan says who can give what the stage waits for.
func (r *Rules) WhoCan(stage *lang.Stage) string {
	if stage.From == lang.FromCodeOwners {
		return r.codeOwnersWho()
	}
	if (stage.WaitFor == lang.WaitLabel || stage.WaitFor == lang.WaitDismiss) && stage.From == "" {
		return "someone with write access"
	}
	g := r.Cfg.Group(stage.From)
	if g == nil {
		return "someone with write access (not the author)"
	}
	var names []string
	names = append(names, g.Users...)
	for _, t := range g.Teams {
		names = append(names, "team "+t)
	}
	return fmt.Sprintf("group %s (%s; not the author)", g.Name, strings.Join(names, ", "))
}
