package gates

import (
	"maps"
	"slices"

	"github.com/org/pipeline-action/engine"
)

// Registry maps check names to gates. The zero value holds none.
type Registry struct {
	gates map[string]engine.Gate
}

var _ engine.GateRegistry = (*Registry)(nil)

// NewRegistry returns a registry of the given gates, keyed by check name.
func NewRegistry(gates map[string]engine.Gate) *Registry {
	r := &Registry{gates: map[string]engine.Gate{}}
	for name, g := range gates {
		r.gates[name] = g
	}
	return r
}

// Default returns the registry of the built-in checks.
func Default() engine.GateRegistry {
	return NewRegistry(map[string]engine.Gate{
		"human_approved":       HumanApproved{},
		"no_changes_requested": NoChangesRequested{},
		"ci_status":            CIStatus{},
		"label_present":        LabelPresent{},
		"pr_approvals_met":     PRApprovalsMet{},
		"command":              Command{},
		"file_exists":          FileExists{},
		"branch_up_to_date":    BranchUpToDate{},
		"expr":                 Expr{},
		"deployment":           Deployment{},
		"http":                 HTTP{},
		CodeOwnersApprovedName: CodeOwnersApproved{},
		ScheduleName:           Schedule{},
	})
}

// Lookup returns the gate called name.
func (r *Registry) Lookup(name string) (engine.Gate, bool) {
	g, ok := r.gates[name]
	return g, ok
}

// Names returns the check names, sorted.
func (r *Registry) Names() []string {
	return slices.Sorted(maps.Keys(r.gates))
}
