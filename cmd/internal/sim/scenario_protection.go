package sim

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// mergeabilitySetting is the scenario's top-level `mergeability`: GitHub answers mergeable
// UNKNOWN for the first unknown_reads reads after a pull request is opened or its head or base
// moves (0, the default: it knows at once).
type mergeabilitySetting struct {
	UnknownReads int `yaml:"unknown_reads"`
}

// protectionSetting is one branch of the scenario's top-level `protection`: what GitHub
// enforces on a merge into it (docs/scenarios.md).
type protectionSetting struct {
	RequiredReviews int      `yaml:"required_reviews"`
	RequiredChecks  []string `yaml:"required_checks"`
	Strict          bool     `yaml:"strict"`
	MergeMethods    []string `yaml:"merge_methods"`
	MergeQueue      bool     `yaml:"merge_queue"`
	// The rules only people can meet: code owners' reviews, resolved conversations, who may push.
	CodeOwnerReviews       bool     `yaml:"require_code_owner_reviews"`
	LinearHistory          bool     `yaml:"required_linear_history"`
	ConversationResolution bool     `yaml:"required_conversation_resolution"`
	PushRestrictions       []string `yaml:"push_restrictions"`
}

func applyProtection(f *ghfake.Server, sc *scenario) {
	if m := sc.Mergeability; m != nil {
		f.SetUnknownReads(sc.Repo, m.UnknownReads)
	}
	for _, b := range slices.Sorted(maps.Keys(sc.Protection)) {
		p := sc.Protection[b]
		f.SetProtection(sc.Repo, b, ghfake.Protection{RequiredReviews: p.RequiredReviews, RequiredChecks: p.RequiredChecks,
			Strict: p.Strict, MergeMethods: p.MergeMethods, MergeQueue: p.MergeQueue,
			CodeOwnerReviews: p.CodeOwnerReviews, LinearHistory: p.LinearHistory,
			ConversationResolution: p.ConversationResolution, PushAllowances: p.PushRestrictions})
	}
}

// resolveStep is `resolve: {pr, user}`: user resolves every open review
// conversation of the pull request. GitHub sends pull_request_review_thread, which the
// action's workflow does not listen to, so nothing is delivered: the next event finds them
// resolved.
type resolveStep struct {
	PR   int    `yaml:"pr"`
	User string `yaml:"user"`
}

func (s *simulation) resolveConversations(v *resolveStep) (string, error) {
	if v.User == "" {
		return "", errors.New("resolve needs a user (who resolves them)")
	}
	n := s.fake.ResolveConversations(s.sc.Repo, v.PR)
	if n == 0 {
		return "", fmt.Errorf("resolve: #%d has no open conversation", v.PR)
	}
	return fmt.Sprintf("resolve #%d by %s: %d resolved (no event)", v.PR, v.User, n), nil
}
