package linkcheck

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namedSection is a section named in prose rather than linked: the README's "Safety",
// docs/security.md, "The state key".
var namedSection = regexp.MustCompile(`\b(README|(?:docs/)?[a-z-]+\.md)(?:’s|'s|,) "([^"\n]+)"`)

// sectionProblems lists the sections text names that the file it names has no heading for.
// doc returns a Markdown file's content by its path from the root.
func sectionProblems(rel string, text []byte, doc func(string) ([]byte, bool)) []string {
	var out []string
	for _, m := range namedSection.FindAllSubmatch(text, -1) {
		file := string(m[1])
		switch {
		case file == "README":
			file = "README.md"
		case !strings.Contains(file, "/"):
			file = "docs/" + file
		}
		content, ok := doc(file)
		if !ok {
			out = append(out, rel+": names a section of "+file+", which is not in the repository")
			continue
		}
		if !anchors(content)[slug(string(m[2]))] {
			out = append(out, rel+": names the section \""+string(m[2])+"\" of "+file+", which has no such heading")
		}
	}
	return out
}

func TestSectionProblems(t *testing.T) {
	docs := map[string]string{"README.md": "# P\n## Safety\n### When the action needs an app token\n", "docs/security.md": "# S\n## The state key\n"}
	doc := func(p string) ([]byte, bool) { s, ok := docs[p]; return []byte(s), ok }
	text := `the README's "Safety" section, the README's "When the action needs an app token", ` +
		`docs/security.md, "The state key"; security.md's "The state key"`
	assert.Empty(t, sectionProblems("x.go", []byte(text), doc))
	got := sectionProblems("x.go", []byte(`the README's "Speed" and docs/gone.md, "X"`), doc)
	assert.Equal(t, []string{
		`x.go: names the section "Speed" of README.md, which has no such heading`,
		"x.go: names a section of docs/gone.md, which is not in the repository",
	}, got)
}

// TestEveryNamedSectionExists reads every file of the repository (code, docs, workflows) and
// fails on a section named in prose that the document it names has no heading for, so that a
// renamed heading cannot leave a reader looking for it.
func TestEveryNamedSectionExists(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	doc := func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return b, err == nil
	}
	named := 0
	for _, rel := range repositoryFiles(t, root) {
		if strings.HasSuffix(rel, "_test.go") {
			continue // the made-up cases above
		}
		b, ok := doc(rel)
		if !ok || bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			continue
		}
		named += len(namedSection.FindAll(b, -1))
		for _, p := range sectionProblems(rel, b, doc) {
			t.Error(p)
		}
	}
	assert.Greater(t, named, 2, "the sections named in prose are found")
}
