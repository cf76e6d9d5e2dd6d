package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"
)

func TestNoChangesRequested(t *testing.T) {
	tests := []gateCase{
		{
			name:  "no reviews",
			facts: facts(),
			want:  model.GateResult{Status: model.GatePass, Message: "no changes requested"},
		},
		{
			name:  "changes requested",
			facts: facts(review("alice", model.ReviewChangesRequested, head)),
			want: model.GateResult{Status: model.GateFail, Message: "alice requested changes",
				Who: "alice (approve, or dismiss the review)"},
		},
		{
			name:  "changes requested on an older commit still stand",
			facts: facts(review("alice", model.ReviewChangesRequested, old), review("alice", model.ReviewCommented, head)),
			want: model.GateResult{Status: model.GateFail, Message: "alice requested changes",
				Who: "alice (approve, or dismiss the review)"},
		},
		{
			name: "two reviewers",
			facts: facts(review("alice", model.ReviewChangesRequested, head), review("bob", model.ReviewApproved, head),
				review("carol", model.ReviewChangesRequested, head)),
			want: model.GateResult{Status: model.GateFail, Message: "alice and carol requested changes",
				Who: "alice and carol (approve, or dismiss their reviews)"},
		},
		{
			name:  "approved after requesting changes",
			facts: facts(review("alice", model.ReviewChangesRequested, old), review("alice", model.ReviewApproved, head)),
			want:  model.GateResult{Status: model.GatePass, Message: "no changes requested"},
		},
		{
			name:  "review dismissed",
			facts: facts(review("alice", model.ReviewChangesRequested, old), review("alice", model.ReviewDismissed, old)),
			want:  model.GateResult{Status: model.GatePass, Message: "no changes requested"},
		},
		{
			name:  "a user without write access does not block",
			facts: facts(readOnly("dave", model.ReviewChangesRequested, head)),
			want: model.GateResult{Status: model.GatePass,
				Message: "no changes requested by anyone with write access (dave has no write access)"},
		},
		{
			name:  "no pull request fails closed",
			facts: &model.Facts{},
			want: model.GateResult{Status: model.GateError,
				Message: `there is no pull request to check; "no_changes_requested" works only on pull requests`},
		},
	}
	assertEvaluates(t, NoChangesRequested{}, "no_changes_requested", "{}", tests)
}
