package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
)

func TestNoChangesRequested(t *testing.T) {
	tests := []struct {
		name  string
		facts *engine.Facts
		want  engine.GateResult
	}{
		{
			name:  "no reviews",
			facts: facts(),
			want:  engine.GateResult{Status: engine.GatePass, Message: "no changes requested"},
		},
		{
			name:  "changes requested",
			facts: facts(review("alice", engine.ReviewChangesRequested, head)),
			want: engine.GateResult{Status: engine.GateFail, Message: "alice requested changes",
				Who: "alice (approve, or dismiss the review)"},
		},
		{
			name:  "changes requested on an older commit still stand",
			facts: facts(review("alice", engine.ReviewChangesRequested, old), review("alice", engine.ReviewCommented, head)),
			want: engine.GateResult{Status: engine.GateFail, Message: "alice requested changes",
				Who: "alice (approve, or dismiss the review)"},
		},
		{
			name: "two reviewers",
			facts: facts(review("alice", engine.ReviewChangesRequested, head), review("bob", engine.ReviewApproved, head),
				review("carol", engine.ReviewChangesRequested, head)),
			want: engine.GateResult{Status: engine.GateFail, Message: "alice and carol requested changes",
				Who: "alice and carol (approve, or dismiss their reviews)"},
		},
		{
			name:  "approved after requesting changes",
			facts: facts(review("alice", engine.ReviewChangesRequested, old), review("alice", engine.ReviewApproved, head)),
			want:  engine.GateResult{Status: engine.GatePass, Message: "no changes requested"},
		},
		{
			name:  "review dismissed",
			facts: facts(review("alice", engine.ReviewChangesRequested, old), review("alice", engine.ReviewDismissed, old)),
			want:  engine.GateResult{Status: engine.GatePass, Message: "no changes requested"},
		},
		{
			name:  "a user without write access does not block",
			facts: facts(readOnly("dave", engine.ReviewChangesRequested, head)),
			want: engine.GateResult{Status: engine.GatePass,
				Message: "no changes requested by anyone with write access (dave has no write access)"},
		},
		{
			name:  "no pull request fails closed",
			facts: &engine.Facts{},
			want: engine.GateResult{Status: engine.GateError,
				Message: `there is no pull request to check; "no_changes_requested" works only on pull requests`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, NoChangesRequested{}, "no_changes_requested", "{}")
			tt.want.Check = "no_changes_requested"
			assert.Equal(t, tt.want, c.Evaluate(tt.facts))
		})
	}
}
