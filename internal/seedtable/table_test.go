package seedtable

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

// row is one row of the table: its cells, as written.
type row struct{ construct, seed, runs, shownBy string }

// tableRows reads the table of docs/language.md's "What runs today".
func tableRows(t *testing.T) []row {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "docs", "language.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(src), "\n## What runs today\n")
	require.True(t, ok, "docs/language.md has a section What runs today")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []row
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| --- ") || strings.HasPrefix(line, "| construct ") {
			continue
		}
		cells := splitCells(line)
		require.Len(t, cells, 4, "a row has four cells: %s", line)
		rows = append(rows, row{cells[0], cells[1], cells[2], cells[3]})
	}
	return rows
}

// splitCells splits a Markdown table row at its unescaped pipes.
func splitCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

var (
	refPattern  = regexp.MustCompile("(scenario|example|test) `([^`]+)`")
	seedPattern = regexp.MustCompile(`^00[0-4], \S`)
)

// Every row names its seed and section, says whether it runs, and names what shows it
// running; what it names exists.
func TestEveryRowSaysWhereItComesFromAndWhatShowsIt(t *testing.T) {
	rows := tableRows(t)
	require.Greater(t, len(rows), 50, "the table lists the seeds' constructs one by one")
	tests := testNames(t)
	seeds := map[string]int{}
	for _, r := range rows {
		assert.Regexp(t, seedPattern, r.seed, "row %q names its seed and section", r.construct)
		for _, s := range regexp.MustCompile(`\b00[0-4]\b`).FindAllString(r.seed, -1) {
			seeds[s]++
		}
		refs := refPattern.FindAllStringSubmatch(r.shownBy, -1)
		switch {
		case strings.HasPrefix(r.runs, "runs"):
			assert.NotEmpty(t, refs, "row %q runs: it names a scenario, an example or a test that shows it", r.construct)
		case strings.HasPrefix(r.runs, "not an Action's to see"):
		default:
			t.Errorf("row %q: the runs cell begins with \"runs\", \"runs in part\" or \"not an Action's to see\", not %q", r.construct, r.runs)
		}
		if strings.HasPrefix(r.runs, "runs in part") {
			assert.Contains(t, r.runs, ":", "row %q says what of it does not run", r.construct)
		}
		for _, ref := range refs {
			assert.True(t, exists(ref[1], ref[2], tests), "row %q names %s %q, which does not exist", r.construct, ref[1], ref[2])
		}
	}
	for _, s := range []string{"000", "001", "002", "003", "004"} {
		assert.Positive(t, seeds[s], "no row comes from seed %s", s)
	}
}

// exists says whether the scenario, example or test named exists.
func exists(kind, name string, tests map[string]bool) bool {
	switch kind {
	case "scenario":
		return isFile(filepath.Join(root, "cmd", "internal", "sim", "testdata", "scenarios", name, "scenario.yaml")) ||
			isDir(filepath.Join(root, "cmd", "internal", "sim", "testdata", "scenarios", name))
	case "example":
		return isFile(filepath.Join(root, "examples", name, "scenario.yaml"))
	case "test":
		return tests[name]
	}
	return false
}

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && !st.IsDir() }
func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }

// testNames are the Go test functions of the module.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			out[m[1]] = true
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
