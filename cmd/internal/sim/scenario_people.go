package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// Scenario steps about people's authority: access changes a login's permission or a
// team's members (GitHub starts no workflow for either), and edit_comment with author
// edits someone's comment, as anyone with write access may.

// accessStep is `access: {user, permission}` or `access: {team, add, remove}`.
type accessStep struct {
	User       string   `yaml:"user"`
	Permission string   `yaml:"permission"`
	Team       string   `yaml:"team"`
	Add        []string `yaml:"add"`
	Remove     []string `yaml:"remove"`
}

var accessPermissions = []string{"none", "read", "triage", "write", "maintain", "admin"}

// access applies an access step to the fake and returns its label.
func (s *simulation) access(v *accessStep) (string, error) {
	switch {
	case v.User != "" && v.Team == "":
		if !slices.Contains(accessPermissions, v.Permission) {
			return "", fmt.Errorf("access: permission must be one of %s, not %q", strings.Join(accessPermissions, ", "), v.Permission)
		}
		if len(v.Add)+len(v.Remove) > 0 {
			return "", errors.New("access: add and remove go with team, not user")
		}
		s.fake.AddUser(v.User, v.Permission)
		return fmt.Sprintf("access: %s now has %s permission (no event)", v.User, v.Permission), nil
	case v.Team != "" && v.User == "":
		if v.Permission != "" || len(v.Add)+len(v.Remove) == 0 {
			return "", errors.New("access: a team takes add and/or remove, not permission")
		}
		s.fake.ChangeTeam(v.Team, v.Add, v.Remove)
		return fmt.Sprintf("access: team %s +%v -%v (no event)", v.Team, v.Add, v.Remove), nil
	}
	return "", errors.New("access takes user and permission, or team with add and/or remove")
}

// editCommentBy edits, as v.User, the latest comment v.Author wrote on #v.PR: find →
// replace in its text. GitHub lets the author, or anyone with write access, edit a comment;
// it keeps the author and records the editor.
func (s *simulation) editCommentBy(v *editCommentStep) (ghfake.Event, string, error) {
	if v.User == "" || v.Find == "" || v.Forge != nil {
		return ghfake.Event{}, "", errors.New("edit_comment with author takes user and find (and replace)")
	}
	var c *ghfake.CommentView
	s.try(func() {
		for _, cm := range s.fake.Comments(s.sc.Repo, v.PR) {
			if strings.EqualFold(cm.Author, v.Author) {
				cm := cm
				c = &cm
			}
		}
	})
	if c == nil {
		return ghfake.Event{}, "", fmt.Errorf("edit_comment: %s wrote no comment on #%d", v.Author, v.PR)
	}
	if !strings.EqualFold(v.User, c.Author) && !slices.Contains([]string{"write", "maintain", "admin"}, s.fake.Permission(v.User)) {
		return ghfake.Event{}, "", fmt.Errorf("edit_comment: GitHub lets %s edit only their own comments (they have no write access)", v.User)
	}
	if !strings.Contains(c.Body, v.Find) {
		return ghfake.Event{}, "", fmt.Errorf("edit_comment: %s's comment on #%d does not contain %q", v.Author, v.PR, v.Find)
	}
	ev := s.fake.EditComment(s.sc.Repo, c.ID, v.User, strings.Replace(c.Body, v.Find, v.Replace, 1))
	return ev, fmt.Sprintf("edit_comment %d (by %s) on #%d by %s", c.ID, c.Author, v.PR, v.User), nil
}

// by is " by user", or "" for the default actor.
func by(user string) string {
	if user == "" {
		return ""
	}
	return " by " + user
}
