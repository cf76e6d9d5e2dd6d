package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// HumanApproved is the `human_approved` check: at least `count` (default 1) approving
// reviews on the current head, from users with write access other than the PR's author.
type HumanApproved struct{}

var _ engine.Gate = HumanApproved{}

// Compile reads `count`, an integer of at least 1.
func (HumanApproved) Compile(p *engine.Params) (engine.Check, error) {
	return humanApproved{count: p.Int("count", 1, 1)}, nil
}

type humanApproved struct {
	count int
}

var _ engine.Check = humanApproved{}

const humanApprovedName = "human_approved"

// Evaluate counts each reviewer's latest opinion. An approval given on an older commit
// is stale; one from a user without write access, or from the author, does not count.
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
		case !r.CanPush:
			notes = append(notes, fmt.Sprintf("%s has no write access", r.Author))
		case pr.HeadSHA == "" || r.CommitSHA != pr.HeadSHA:
			notes = append(notes, fmt.Sprintf("%s's approval is on an older commit", r.Author))
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
