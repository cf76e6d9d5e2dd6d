package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// HumanApproved is the `human_approved` check: at least `count` (default 1) approving
// reviews on the current head, from users with write access other than the PR's author.
// With `from` (a group of `groups:`) only the group's members count; that needs group
// membership in the facts, so such a check loads but cannot be evaluated yet.
type HumanApproved struct{}

var _ engine.Gate = HumanApproved{}

// GroupRef is implemented by checks that name a group of `groups:`; validation checks
// that the group exists.
type GroupRef interface {
	Group() string // "" when the check names none
}

// Compile reads `count`, an integer of at least 1, and `from`, a group name.
func (HumanApproved) Compile(p *engine.Params) (engine.Check, error) {
	c := humanApproved{count: p.Int("count", 1, 1)}
	if !p.Has("from") {
		return c, nil
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
	return humanApprovedFrom{humanApproved: c, group: group}, nil
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
	_ engine.Check       = humanApprovedFrom{}
	_ engine.Unsupported = humanApprovedFrom{}
	_ GroupRef           = humanApprovedFrom{}
)

// Group returns the group named by `from`.
func (c humanApprovedFrom) Group() string { return c.group }

// Unsupported says what evaluating the check lacks.
func (humanApprovedFrom) Unsupported() string {
	return `check "human_approved" with "from" (group membership is not in the facts yet)`
}

// Evaluate fails closed: who belongs to the group is not known.
func (c humanApprovedFrom) Evaluate(*engine.Facts) engine.GateResult {
	return unsupported(humanApprovedName, c)
}

const humanApprovedName = "human_approved"

// Evaluate counts each reviewer's latest opinion. An approval given on an older commit,
// or before the PR's base changed, is stale; one from a user without write access, from the author, or from an app
// (a bot account) does not count.
func (c humanApproved) Evaluate(f *engine.Facts) engine.GateResult {
	if f == nil || f.PR == nil {
		return noPR(humanApprovedName) // fail closed
	}
	pr := f.PR
	var approvers, notes []string
	for _, r := range latestOpinions(pr.Reviews) {
		if r.State != engine.ReviewApproved {
			continue
		}
		switch {
		case sameLogin(r.Author, pr.Author):
			notes = append(notes, fmt.Sprintf("%s is the author", r.Author))
		case r.IsBot:
			notes = append(notes, fmt.Sprintf("%s is an app, not a person", r.Author))
		case !r.CanPush:
			notes = append(notes, fmt.Sprintf("%s has no write access", r.Author))
		case pr.HeadSHA == "" || r.CommitSHA != pr.HeadSHA:
			notes = append(notes, fmt.Sprintf("%s's approval is on an older commit", r.Author))
		case !r.SubmittedAt.After(pr.Last(engine.TimelineBaseChanged, "")) && !pr.Last(engine.TimelineBaseChanged, "").IsZero():
			// A new base is a new change to review, as GitHub's "dismiss stale approvals" has it.
			notes = append(notes, fmt.Sprintf("%s's approval predates the change of base to %s", r.Author, pr.BaseRef))
		default:
			approvers = append(approvers, r.Author)
		}
	}
	res := engine.GateResult{Check: humanApprovedName}
	if len(approvers) >= c.count {
		res.Status = engine.GatePass
		res.Message = "approved by " + joinAnd(approvers)
		return res
	}
	res.Status = engine.GatePending
	res.Message = fmt.Sprintf("needs %d approving %s from someone with write access; has %d",
		c.count, plural(c.count, "review", "reviews"), len(approvers))
	if len(notes) > 0 {
		res.Message += " (" + strings.Join(notes, "; ") + ")"
	}
	res.Who = "a reviewer with write access"
	return res
}
