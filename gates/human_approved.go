package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// HumanApproved is the `human_approved` check: at least `count` (default 1) approving
// reviews on the current head, from users with write access other than the PR's author.
// With `from` (a group of `groups:`) only the group's members count: its users, and the
// members of its teams as the facts read them (Facts.TeamMembers).
type HumanApproved struct{}

var _ engine.Gate = HumanApproved{}

// GroupRef is implemented by checks that name a group of `groups:`; validation checks
// that the group exists.
type GroupRef interface {
	Group() string // "" when the check names none
}

// Compile reads `count`, an integer of at least 1, and `from`, a group name.
func (HumanApproved) Compile(p *lang.Params) (engine.Check, error) {
	c := humanApproved{count: p.Int("count", 1, 1)}
	if !p.Has("from") {
		return withPR(p, c), nil
	}
	before := len(p.Errors())
	group := p.String("from", "")
	if len(p.Errors()) > before {
		return c, nil // not a string; Params said so
	}
	if group == "" {
		p.Errorf("from", "%q of check %q must name a group", "from", humanApprovedName)
		return c, nil
	}
	return withPR(p, humanApprovedFrom{humanApproved: c, group: group}), nil
}

type humanApproved struct {
	count int
}

var (
	_ engine.Check = humanApproved{}
	_ GroupRef     = humanApproved{}
)

// Group returns "": any user with write access counts.
func (humanApproved) Group() string { return "" }

// humanApprovedFrom is human_approved restricted to the members of a group.
type humanApprovedFrom struct {
	humanApproved
	group string
}

var (
	_ engine.Check = humanApprovedFrom{}
	_ GroupRef     = humanApprovedFrom{}
)

// Group returns the group named by `from`.
func (c humanApprovedFrom) Group() string { return c.group }

// Evaluate counts the approvals of the group's members only. A group the facts do not
// describe (it is not in the config), or a team of it whose members were not read, fails
// closed.
func (c humanApprovedFrom) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(humanApprovedName)
	}
	g, ok := f.Groups[c.group]
	if !ok {
		return model.GateResult{Check: humanApprovedName, Status: model.GateError,
			Message: fmt.Sprintf("group %q is not in the config", c.group), Who: "a maintainer (fix the pipeline)"}
	}
	members := map[string]bool{}
	for _, u := range g.Users {
		members[strings.ToLower(u)] = true
	}
	for _, t := range g.Teams {
		logins, read := f.TeamMembers[strings.ToLower(t)]
		if !read {
			return model.GateResult{Check: humanApprovedName, Status: model.GateError,
				Message: fmt.Sprintf("the members of team %s were not read", t), Who: "a maintainer"}
		}
		for _, u := range logins {
			members[strings.ToLower(u)] = true
		}
	}
	return c.humanApproved.evaluate(f, func(login string) bool { return members[strings.ToLower(login)] },
		"a member of "+c.group)
}

const humanApprovedName = "human_approved"

// Evaluate counts each reviewer's latest opinion. An approval given on an older commit,
// or before the PR's base changed, is stale; one from a user without write access, from the
// author or someone who wrote commits of it (unless settings.approvals.allow_contributors),
// from an app (a bot account) or from one of the config's agents (Facts.Agents, a machine
// user's login) does not count.
func (c humanApproved) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(humanApprovedName) // fail closed
	}
	return c.evaluate(f, nil, "someone with write access")
}

// evaluate counts approvals; with member set, only those of the logins it accepts. whom
// says who may approve, for the message.
func (c humanApproved) evaluate(f *model.Facts, member func(string) bool, whom string) model.GateResult {
	approvers, notes := approvals(f, member, whom)
	res := model.GateResult{Check: humanApprovedName}
	if len(approvers) >= c.count {
		res.Status = model.GatePass
		res.Message = "approved by " + joinAnd(approvers)
		return res
	}
	res.Status = model.GatePending
	res.Message = fmt.Sprintf("needs %d approving %s from %s; has %d",
		c.count, model.Plural(c.count, "review", "reviews"), whomWithAccess(whom), len(approvers))
	if len(notes) > 0 {
		res.Message += " (" + strings.Join(notes, "; ") + ")"
	}
	res.Who = "a reviewer with write access"
	if member != nil {
		res.Who = whom + " with write access"
	}
	return res
}

// approvals are model.Facts.Approvals of the pull request of f.
func approvals(f *model.Facts, member func(string) bool, whom string) (approvers, notes []string) {
	return f.Approvals(f.PR, member, whom)
}

// whomWithAccess is who may approve, for the message: members also need write access.
func whomWithAccess(whom string) string {
	if strings.HasPrefix(whom, "a member of ") {
		return whom + " with write access"
	}
	return whom
}
