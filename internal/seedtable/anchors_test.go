package seedtable

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// anchorRows reads the table of docs/language.md's "What merge-bot users expect".
func anchorRows(t *testing.T) [][]string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "docs", "language.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(src), "\n## What merge-bot users expect\n")
	require.True(t, ok, "docs/language.md has a section What merge-bot users expect")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows [][]string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| --- ") || strings.HasPrefix(line, "| feature ") {
			continue
		}
		cells := splitCells(line)
		require.Len(t, cells, 4, "a row has four cells: %s", line)
		rows = append(rows, cells)
	}
	return rows
}

// Every row names the bots it comes from and says how this project does it, showing it, or
// that it does not (yet), and why.
func TestEveryAnchorSaysHowOrWhyNot(t *testing.T) {
	rows := anchorRows(t)
	require.Greater(t, len(rows), 15)
	tests := testNames(t)
	bots := map[string]bool{}
	for _, r := range rows {
		feature, from, here, shownBy := r[0], r[1], r[2], r[3]
		for _, b := range []string{"Mergify", "policy-bot", "bulldozer", "Kodiak", "tide", "GitHub"} {
			bots[b] = bots[b] || strings.Contains(from, b)
		}
		assert.NotEmpty(t, from, "row %q names the bots it comes from", feature)
		refs := refPattern.FindAllStringSubmatch(shownBy, -1)
		switch {
		case strings.HasPrefix(here, "not yet") || strings.HasPrefix(here, "not here"):
			assert.Contains(t, here, ":", "row %q says why not, or what it does instead", feature)
		default:
			assert.NotEmpty(t, refs, "row %q is done here: it names a scenario, an example or a test that shows it", feature)
		}
		for _, ref := range refs {
			assert.True(t, exists(ref[1], ref[2], tests), "row %q names %s %q, which does not exist", feature, ref[1], ref[2])
		}
	}
	for _, b := range []string{"Mergify", "policy-bot", "bulldozer", "Kodiak", "tide", "GitHub"} {
		assert.True(t, bots[b], "no row comes from %s", b)
	}
}
