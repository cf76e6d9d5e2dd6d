package engine

import (
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// People in the facts: who belongs to a group's teams, and who holds which permission on
// the repository. The shell reads only what PeopleNeeded asks for; what was not read is
// not known, and the engine then counts no one (it fails closed).

// IssueComment is one comment on the subject.
type IssueComment struct {
	ID        int64
	Author    string
	Body      string
	CreatedAt time.Time
	IsBot     bool // the author is an app
	Viewer    bool // the action itself wrote it
	// EditedBy is who last edited the comment when that was not its author (GitHub lets
	// anyone with write access edit any comment and keeps the author); "" when it is
	// unedited or its author edited it last. An editor GitHub no longer names is "ghost".
	EditedBy string
}

// EditedByOther reports whether a comment that was edited (edited) was last edited by
// someone other than its author: the editor GitHub names differs from the author, or
// GitHub names none. Logins are spelt as GitHub spells them (an app is "<slug>[bot]").
func EditedByOther(edited bool, author, editor string) bool {
	return edited && (editor == "" || editor != author)
}

// Disowned reports whether c is no longer its author's word: someone else edited it. It
// is then neither a command nor a human action.
func (c IssueComment) Disowned() bool { return c.EditedBy != "" }

// People holds the repository permissions read for this evaluation (team members are
// Facts.TeamMembers).
type People struct {
	// Permissions maps a login (lower case) to its role on the repository: read, triage,
	// write, maintain, admin or none; a login missing from the map was not read.
	Permissions map[string]string
}

// Approval is a `/pipeline approve` (or skip) command counted for a human stage. Who gave
// it is judged again, on today's permissions, whenever it is counted.
type Approval struct {
	Login   string    `json:"login"`
	SHA     string    `json:"sha"` // the head it was given on
	At      time.Time `json:"at"`  // when the comment was written, as GitHub tells
	Comment int64     `json:"comment"`
}

// Permission levels, lowest first.
var permissionRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

// DefaultChatOpsPermission is the permission `/pipeline` commands need by default.
const DefaultChatOpsPermission = "write"

// Permission returns login's role as read, and whether it was read.
func (p People) Permission(login string) (string, bool) {
	r, ok := p.Permissions[strings.ToLower(login)]
	return r, ok
}

// Has reports whether login holds at least permission need (read, triage, write, maintain,
// admin). A login whose permission was not read holds none.
func (p People) Has(login, need string) bool {
	r, ok := p.Permission(login)
	if !ok {
		return false
	}
	have, ok1 := permissionRank[r]
	want, ok2 := permissionRank[need]
	return ok1 && ok2 && have >= want
}

// InGroup reports whether login is a user of group g or a member of one of its teams as
// read (Facts.TeamMembers; a team not read counts no one).
func (f *Facts) InGroup(g *lang.Group, login string) bool {
	if g == nil || login == "" {
		return false
	}
	if hasLogin(g.Users, login) {
		return true
	}
	for _, t := range g.Teams {
		if hasLogin(f.TeamMembers[strings.ToLower(t)], login) {
			return true
		}
	}
	return false
}

// Needs is what an evaluation needs read of people before Step.
type Needs struct {
	Teams       []string // "org/slug"
	Permissions []string // logins
}

// Empty reports whether nothing needs reading.
func (n Needs) Empty() bool { return len(n.Teams) == 0 && len(n.Permissions) == 0 }

// PeopleNeeded says which teams and permissions Step needs for st on facts f: for every
// human stage of an open run's pipeline (the merge guard judges them all), the teams of
// its group when someone who is not one of the group's users did what the stage waits
// for, and the permissions of everyone whose action may count there without a review
// that tells it (commenters, who added the label or dismissed the review, who gave a
// stored `/pipeline approve` or skip); when `/pipeline` commands wait to be acted on,
// their authors' permissions, and the teams of chatops.from and of the stage they may
// approve for. It asks only for what can change the outcome, so an event with nothing new
// from people costs no request.
func PeopleNeeded(cfg *lang.Config, st *State, f *Facts) Needs {
	if f != nil && f.PR == nil && f.Issue != nil {
		f = subjectView(f) // step_issue.go: the issue as the subject
	}
	if cfg == nil || st == nil || f == nil || f.PR == nil {
		return Needs{}
	}
	teams, logins := map[string]string{}, map[string]string{}
	// addGroup asks for the teams of group name when one of who is not a user of it.
	addGroup := func(name string, who []string) {
		g := cfg.Group(name)
		if g == nil || len(g.Teams) == 0 {
			return
		}
		for _, w := range who {
			if !hasLogin(g.Users, w) {
				for _, t := range g.Teams {
					teams[strings.ToLower(t)] = t
				}
				return
			}
		}
	}
	var commanders []string
	for _, c := range f.PR.Comments {
		if c.ID > st.CommandsSeen && !c.Viewer && !c.IsBot && !c.Disowned() && isCommand(c.Body) {
			commanders = append(commanders, c.Author)
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
			// A check with `from` fails closed on a team not read: read them all.
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
		// Every human stage of the pipeline: the merge guard judges them all again.
		for _, hs := range p.Stages {
			if hs.Type != lang.StageHuman {
				continue
			}
			who, perms := humanActors(hs, run.Stages[hs.ID], f, run) // step_human_from.go
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
	if live {
		for _, l := range commanders {
			logins[strings.ToLower(l)] = l
		}
		for _, g := range cfg.Settings.ChatOpsFrom {
			addGroup(g, commanders)
		}
	}
	var n Needs
	for _, t := range teams {
		n.Teams = append(n.Teams, t)
	}
	for _, l := range logins {
		if l != "" {
			n.Permissions = append(n.Permissions, l)
		}
	}
	sort.Strings(n.Teams)
	sort.Strings(n.Permissions)
	return n
}

func hasLogin(xs []string, x string) bool {
	for _, y := range xs {
		if strings.EqualFold(x, y) {
			return true
		}
	}
	return false
}

// countsAsHuman reports whether comment c is a person's: not the action's, not an app's.
func countsAsHuman(c IssueComment, f *Facts) bool {
	return !c.Viewer && !c.IsBot && c.Author != "" && !SameIdentity(c.Author, f.Viewer)
}
