package model

import (
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

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
var PermissionRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

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
	have, ok1 := PermissionRank[r]
	want, ok2 := PermissionRank[need]
	return ok1 && ok2 && have >= want
}

// InGroup reports whether login is a user of group g or a member of one of its teams as
// read (Facts.TeamMembers; a team not read counts no one).
func (f *Facts) InGroup(g *lang.Group, login string) bool {
	if g == nil || login == "" {
		return false
	}
	if HasLogin(g.Users, login) {
		return true
	}
	for _, t := range g.Teams {
		if HasLogin(f.TeamMembers[strings.ToLower(t)], login) {
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

func HasLogin(xs []string, x string) bool {
	for _, y := range xs {
		if strings.EqualFold(x, y) {
			return true
		}
	}
	return false
}

// IsAgent reports whether login is one of the config's agents (Facts.Agents), compared
// as SameIdentity compares logins.
func (f *Facts) IsAgent(login string) bool {
	for _, a := range f.Agents {
		if SameIdentity(a, login) {
			return true
		}
	}
	return false
}

// CountsAsHuman reports whether comment c is a person's: not the action's, not an app's.
func CountsAsHuman(c IssueComment, f *Facts) bool {
	return !c.Viewer && !c.IsBot && c.Author != "" && !SameIdentity(c.Author, f.Viewer)
}
