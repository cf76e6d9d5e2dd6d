// Package people says which people the facts must tell about before an evaluation: the
// teams and repository permissions whose reading can change its outcome, and nothing else.
package people

import (
	"maps"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/chatops"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// People in the facts: who belongs to a group's teams, and who holds which permission on
// the repository. The shell reads only what Needed asks for; what was not read is
// not known, and the engine then counts no one (it fails closed).

// Needed says which teams and permissions Step needs for st on facts f: for every
// human stage of an open run's pipeline (the merge guard judges them all), the teams of
// its group when someone who is not one of the group's users did what the stage waits
// for, and the permissions of everyone whose action may count there without a review
// that tells it (commenters, who added the label or dismissed the review, who gave a
// stored `/pipeline approve` or skip); when `/pipeline` commands wait to be acted on,
// their authors' permissions, and the teams of chatops.from and of the stage they may
// approve for. It asks only for what can change the outcome, so an event with nothing new
// from people costs no request.
func Needed(cfg *lang.Config, st *model.State, f *model.Facts) model.Needs {
	if f != nil && f.PR == nil && f.Issue != nil {
		f = core.SubjectView(f) // the issue as the subject
	}
	if cfg == nil || st == nil || f == nil || f.PR == nil {
		return model.Needs{}
	}
	teams, logins := map[string]string{}, map[string]string{}
	// addGroup asks for the teams of group name when one of who is not a user of it.
	addGroup := func(name string, who []string) {
		g := cfg.Group(name)
		if g == nil || len(g.Teams) == 0 {
			return
		}
		for _, w := range who {
			if !model.HasLogin(g.Users, w) {
				for _, t := range g.Teams {
					teams[strings.ToLower(t)] = t
				}
				return
			}
		}
	}
	var commanders, starters []string
	for _, c := range f.PR.Comments {
		if c.ID > st.CommandsSeen && !c.Viewer && !c.IsBot && !c.Disowned() && model.IsCommand(c.Body) {
			commanders = append(commanders, c.Author)
			if verb, _, _ := model.ParseCommand(c.Body); chatops.ActsAlone(verb) {
				starters = append(starters, c.Author) // a start needs no open run
			}
		}
	}
	live := false
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		live = true
		p := cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		s := p.Stage(run.Stage)
		if s != nil && s.Type == lang.StageGate {
			gateTeams(cfg, s, teams)
		}
		// Every human stage of the pipeline: the merge guard judges them all again.
		for _, hs := range p.Stages {
			if hs.Type != lang.StageHuman {
				continue
			}
			who, perms := authority.HumanActors(hs, run.Stages[hs.ID], f, run, core.RunPRIn(f, run))
			for _, l := range perms {
				if l != "" && !strings.EqualFold(l, f.PR.Author) {
					logins[strings.ToLower(l)] = l
				}
			}
			addGroup(hs.From, who)
		}
		if s != nil && s.Type == lang.StageHuman && s.WaitFor == lang.WaitApproval {
			addGroup(s.From, commanders)
		}
	}
	if !live {
		commanders = starters
	}
	for _, l := range commanders {
		logins[strings.ToLower(l)] = l
	}
	for _, g := range cfg.Settings.ChatOpsFrom {
		addGroup(g, commanders)
	}
	n := model.Needs{Teams: slices.Sorted(maps.Values(teams))}
	for _, l := range slices.Sorted(maps.Values(logins)) {
		if l != "" {
			n.Permissions = append(n.Permissions, l)
		}
	}
	return n
}

// gateTeams adds to teams those of every group a condition of gate s reads (`from`): a
// check with `from` fails closed on a team not read, so all of them are read.
func gateTeams(cfg *lang.Config, s *lang.Stage, teams map[string]string) {
	for _, c := range s.AllConditions() {
		if ref, ok := c.Eval.(lang.GroupRef); ok && ref.Group() != "" {
			if g := cfg.Group(ref.Group()); g != nil {
				for _, t := range g.Teams {
					teams[strings.ToLower(t)] = t
				}
			}
		}
	}
}
