package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

func withGroups(f *engine.Facts, teams map[string][]string) *engine.Facts {
	f.Groups = map[string]*lang.Group{"maintainers": {Name: "maintainers", Users: []string{"Alice"}, Teams: []string{"acme/core"}}}
	f.TeamMembers = teams
	return f
}

func TestHumanApprovedFromAGroup(t *testing.T) {
	c := mustCompile(t, HumanApproved{}, "human_approved", "{from: maintainers, count: 2}")
	core := map[string][]string{"acme/core": {"carol"}}
	tests := []struct {
		name  string
		facts *engine.Facts
		want  engine.GateResult
	}{
		{"a user and a team member", withGroups(facts(review("alice", engine.ReviewApproved, head), review("carol", engine.ReviewApproved, head)), core),
			engine.GateResult{Check: "human_approved", Status: engine.GatePass, Message: "approved by alice and carol"}},
		{"an outsider does not count", withGroups(facts(review("alice", engine.ReviewApproved, head), review("mallory", engine.ReviewApproved, head)), core),
			engine.GateResult{Check: "human_approved", Status: engine.GatePending,
				Message: "needs 2 approving reviews from a member of maintainers with write access; has 1 (mallory is not a member of maintainers)",
				Who:     "a member of maintainers with write access"}},
		{"a member still needs write access and the current head", withGroups(facts(readOnly("carol", engine.ReviewApproved, head), review("alice", engine.ReviewApproved, old)), core),
			engine.GateResult{Check: "human_approved", Status: engine.GatePending,
				Message: "needs 2 approving reviews from a member of maintainers with write access; has 0 (carol has no write access; alice's approval is on an older commit)",
				Who:     "a member of maintainers with write access"}},
		{"team members not read: fails closed", withGroups(facts(review("alice", engine.ReviewApproved, head), review("carol", engine.ReviewApproved, head)), nil),
			engine.GateResult{Check: "human_approved", Status: engine.GateError, Message: "the members of team acme/core were not read", Who: "a maintainer"}},
		{"group unknown: fails closed", facts(review("alice", engine.ReviewApproved, head)),
			engine.GateResult{Check: "human_approved", Status: engine.GateError, Message: `group "maintainers" is not in the config`, Who: "a maintainer (fix the pipeline)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, c.Evaluate(tt.facts))
		})
	}
}
