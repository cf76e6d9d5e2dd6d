package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

func withGroups(f *model.Facts, teams map[string][]string) *model.Facts {
	f.Groups = map[string]*lang.Group{"maintainers": {Name: "maintainers", Users: []string{"Alice"}, Teams: []string{"acme/core"}}}
	f.TeamMembers = teams
	return f
}

func TestHumanApprovedFromAGroup(t *testing.T) {
	c := mustCompile(t, HumanApproved{}, "human_approved", "{from: maintainers, count: 2}")
	core := map[string][]string{"acme/core": {"carol"}}
	tests := []struct {
		name  string
		facts *model.Facts
		want  model.GateResult
	}{
		{"a user and a team member", withGroups(facts(review("alice", model.ReviewApproved, head), review("carol", model.ReviewApproved, head)), core),
			model.GateResult{Check: "human_approved", Status: model.GatePass, Message: "approved by alice and carol"}},
		{"an outsider does not count", withGroups(facts(review("alice", model.ReviewApproved, head), review("mallory", model.ReviewApproved, head)), core),
			model.GateResult{Check: "human_approved", Status: model.GatePending,
				Message: "needs 2 approving reviews from a member of maintainers with write access; has 1 (mallory is not a member of maintainers)",
				Who:     "a member of maintainers with write access"}},
		{"a member still needs write access and the current head", withGroups(facts(readOnly("carol", model.ReviewApproved, head), review("alice", model.ReviewApproved, old)), core),
			model.GateResult{Check: "human_approved", Status: model.GatePending,
				Message: "needs 2 approving reviews from a member of maintainers with write access; has 0 (carol has no write access; alice's approval is on an older commit)",
				Who:     "a member of maintainers with write access"}},
		{"team members not read: fails closed", withGroups(facts(review("alice", model.ReviewApproved, head), review("carol", model.ReviewApproved, head)), nil),
			model.GateResult{Check: "human_approved", Status: model.GateError, Message: "the members of team acme/core were not read", Who: "a maintainer"}},
		{"group unknown: fails closed", facts(review("alice", model.ReviewApproved, head)),
			model.GateResult{Check: "human_approved", Status: model.GateError, Message: `group "maintainers" is not in the config`, Who: "a maintainer (fix the pipeline)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, c.Evaluate(tt.facts))
		})
	}
}
