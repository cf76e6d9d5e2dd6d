package sim

import (
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/scenarios.md has a section for every step kind a scenario may hold (its heading names
// the kind in code), and none for a kind the simulator does not know.
func TestScenariosDocNamesEveryStep(t *testing.T) {
	b := readDoc(t, "scenarios.md")
	documented := map[string]bool{}
	for _, h := range regexp.MustCompile("(?m)^### .*$").FindAllString(b, -1) {
		for _, m := range regexp.MustCompile("`([a-z_]+)[`:]").FindAllStringSubmatch(h, -1) {
			documented[m[1]] = true
		}
	}
	for kind := range stepKinds {
		assert.True(t, documented[kind], "docs/scenarios.md has no section ### `%s`", kind)
	}
	for kind := range documented {
		_, known := stepKinds[kind]
		notSteps := kind == "deliver" || kind == "forge_state" // values of steps, with sections of their own
		assert.True(t, known || notSteps, "docs/scenarios.md documents a step %q the simulator does not know", kind)
	}
}

// docs/scenarios.md names every top-level key of a scenario, in code.
func TestScenariosDocNamesEveryKey(t *testing.T) {
	b := readDoc(t, "scenarios.md")
	keys := append(tags(reflect.TypeOf(scenario{})), "steps", "expect")
	require.Greater(t, len(keys), 10)
	for _, k := range keys {
		assert.Regexp(t, "`"+regexp.QuoteMeta(k)+"[`:]|(?m)^"+regexp.QuoteMeta(k)+":", b, "docs/scenarios.md does not name the scenario's key %q", k)
	}
}

// readDoc returns the text of the page name of the docs.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	return runtest.Read(t, filepath.Join("../../../docs", name))
}
