package sim

import (
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
}

func applyProtection(f *ghfake.Server, sc *scenario) {
	if m := sc.Mergeability; m != nil {
		f.SetUnknownReads(sc.Repo, m.UnknownReads)
	}
	for _, b := range slices.Sorted(maps.Keys(sc.Protection)) {
		p := sc.Protection[b]
		f.SetProtection(sc.Repo, b, ghfake.Protection{RequiredReviews: p.RequiredReviews, RequiredChecks: p.RequiredChecks,
			Strict: p.Strict, MergeMethods: p.MergeMethods, MergeQueue: p.MergeQueue})
	}
}
