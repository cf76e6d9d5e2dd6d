package gates

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
)

func TestHumanApproved(t *testing.T) {
	tests := []gateCase{
		{
			name:  "no reviews",
			facts: facts(),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0", Who: "a reviewer with write access"},
		},
		{
			name:  "approved on the head",
			facts: facts(review("alice", model.ReviewApproved, head)),
			want:  model.GateResult{Status: model.GatePass, Message: "approved by alice"},
		},
		{
			name:  "a later comment does not undo an approval",
			facts: facts(review("alice", model.ReviewApproved, head), review("alice", model.ReviewCommented, head)),
			want:  model.GateResult{Status: model.GatePass, Message: "approved by alice"},
		},
		{
			name:  "stale approval",
			facts: facts(review("alice", model.ReviewApproved, old)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (alice's approval is on an older commit)",
				Who:     "a reviewer with write access"},
		},
		{
			name:  "no write access",
			facts: facts(readOnly("bob", model.ReviewApproved, head)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (bob has no write access)",
				Who:     "a reviewer with write access"},
		},
		{
			name:  "an app's approval is not a person's",
			facts: facts(botReview("review-agent[bot]", model.ReviewApproved, head)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (review-agent[bot] is an app, not a person)",
				Who:     "a reviewer with write access"},
		},
		{
			name:  "an agent's machine user is not a person",
			facts: withAgents(facts(review("Review-Agent", model.ReviewApproved, head)), "review-agent"),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (Review-Agent is an agent, not a person)",
				Who:     "a reviewer with write access"},
		},
		{
			name:  "someone who pushed commits to it",
			facts: withContributors(facts(review("bob", model.ReviewApproved, head)), "Bob", false),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (bob wrote commits of it)",
				Who:     "a reviewer with write access"},
		},
		{
			name: "the author of another pull request the run would merge",
			facts: func() *model.Facts {
				f := facts(review("bob", model.ReviewApproved, head))
				f.RunAuthors = []string{"Bob"}
				return f
			}(),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (bob is the author of another pull request of the run)",
				Who:     "a reviewer with write access"},
		},
		{
			name:  "a contributor, with allow_contributors",
			facts: withContributors(facts(review("bob", model.ReviewApproved, head)), "bob", true),
			want:  model.GateResult{Status: model.GatePass, Message: "approved by bob"},
		},
		{
			name:  "the author's own approval",
			facts: facts(review("Author", model.ReviewApproved, head)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0 (Author is the author)",
				Who:     "a reviewer with write access"},
		},
		{
			name:  "approval then changes requested",
			facts: facts(review("alice", model.ReviewApproved, head), review("alice", model.ReviewChangesRequested, head)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0", Who: "a reviewer with write access"},
		},
		{
			name:  "approval dismissed",
			facts: facts(review("alice", model.ReviewApproved, head), review("alice", model.ReviewDismissed, head)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 1 approving review from someone with write access; has 0", Who: "a reviewer with write access"},
		},
		{
			name:  "re-approved on the head after a push",
			facts: facts(review("alice", model.ReviewApproved, old), review("alice", model.ReviewApproved, head)),
			want:  model.GateResult{Status: model.GatePass, Message: "approved by alice"},
		},
		{
			name:   "two needed, one given",
			params: "{count: 2}",
			facts:  facts(review("alice", model.ReviewApproved, head), review("bob", model.ReviewApproved, old)),
			want: model.GateResult{Status: model.GatePending,
				Message: "needs 2 approving reviews from someone with write access; has 1 (bob's approval is on an older commit)",
				Who:     "a reviewer with write access"},
		},
		{
			name:   "three approvals",
			params: "{count: 2}",
			facts: facts(review("alice", model.ReviewApproved, head), review("bob", model.ReviewApproved, head),
				review("carol", model.ReviewApproved, head)),
			want: model.GateResult{Status: model.GatePass, Message: "approved by alice, bob and carol"},
		},
		{
			name:  "no pull request fails closed",
			facts: &model.Facts{Repo: "org/repo"},
			want: model.GateResult{Status: model.GateError,
				Message: `there is no pull request to check; "human_approved" works only on pull requests`},
		},
	}
	assertEvaluates(t, HumanApproved{}, "human_approved", "{}", tests)
}

func TestHumanApprovedParams(t *testing.T) {
	tests := []paramCase{
		{name: "not an integer", params: "{count: two}", want: `t.yaml:1:9: "count" of check "human_approved" must be an integer [gate]`},
		{name: "zero", params: "{count: 0}", want: `t.yaml:1:9: "count" of check "human_approved" must be at least 1, not 0 [gate]`},
	}
	assertRefuses(t, HumanApproved{}, "human_approved", false, tests)
}

// A new base is a new change to review: approvals given before it are stale, as with
// GitHub's "dismiss stale approvals".
func TestHumanApprovedAfterBaseChange(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	approvedAt := func(user string, when time.Time) prOpt {
		return func(pr *model.PullRequest) {
			pr.Reviews = append(pr.Reviews, model.Review{Author: user, State: model.ReviewApproved, CommitSHA: head, CanPush: true, SubmittedAt: when})
		}
	}
	retargeted := func(pr *model.PullRequest) {
		pr.BaseRef = "release-1.x"
		pr.Timeline = append(pr.Timeline, model.TimelineEvent{Kind: model.TimelineBaseChanged, Label: "release-1.x", At: at.Add(time.Hour)})
	}
	c := mustCompile(t, HumanApproved{}, "human_approved", "{count: 1}")

	got := c.Evaluate(facts(approvedAt("alice", at), retargeted))
	assert.Equal(t, model.GatePending, got.Status)
	assert.Contains(t, got.Message, "alice's approval predates the change of base to release-1.x")

	got = c.Evaluate(facts(approvedAt("alice", at), approvedAt("bob", at.Add(2*time.Hour)), retargeted))
	assert.Equal(t, model.GatePass, got.Status)
	assert.Equal(t, "approved by bob", got.Message)
}

// withContributors makes login a writer of commits of f's pull request; allowed is
// settings.approvals.allow_contributors.
func withContributors(f *model.Facts, login string, allowed bool) *model.Facts {
	f.PR.Contributors = append(f.PR.Contributors, login)
	f.ContributorsApprove = allowed
	return f
}

// withAgents sets the logins of the config's agents, as the engine does.
func withAgents(f *model.Facts, logins ...string) *model.Facts {
	f.Agents = logins
	return f
}

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
