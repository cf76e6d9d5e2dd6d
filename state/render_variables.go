package state

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// Variables in the status comment: a run's variables under the run, the subject's shared
// variables once, after the runs. Their values may come from a pull request's text, so each
// is shown inert, on one line, cut short.

const (
	shownVariables     = 20 // names shown per namespace
	shownVariableRunes = 60 // runes of a value's JSON shown
)

// renderVariables writes one line of vars, titled, or nothing when there are none.
func renderVariables(b *strings.Builder, title string, vars map[string]any) {
	if len(vars) == 0 {
		return
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for i, k := range names {
		if i == shownVariables {
			parts = append(parts, fmt.Sprintf("and %d more", len(names)-i))
			break
		}
		v, err := json.Marshal(vars[k])
		if err != nil {
			v = []byte("?")
		}
		s := []rune(string(v))
		if len(s) > shownVariableRunes {
			s = append(s[:shownVariableRunes], '…')
		}
		parts = append(parts, code(k)+" = "+code(string(s)))
	}
	fmt.Fprintf(b, "<sub>%s: %s</sub>\n\n", title, strings.Join(parts, " · "))
}

// renderShared writes the subject's shared variables.
func renderShared(b *strings.Builder, st *model.State) {
	if st != nil {
		renderVariables(b, "Shared variables", st.Shared)
		renderEnabled(b, st.Enabled)
	}
}

// renderEnabled writes which pipelines the subject's state enables or disables against
// their own `enabled:`.
func renderEnabled(b *strings.Builder, enabled map[string]bool) {
	var on, off []string
	for _, name := range slices.Sorted(maps.Keys(enabled)) {
		if enabled[name] {
			on = append(on, code(name))
		} else {
			off = append(off, code(name))
		}
	}
	var parts []string
	if len(on) > 0 {
		parts = append(parts, "enabled here: "+strings.Join(on, ", "))
	}
	if len(off) > 0 {
		parts = append(parts, "disabled here: "+strings.Join(off, ", "))
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "<sub>Pipelines %s</sub>\n\n", strings.Join(parts, "; "))
	}
}
