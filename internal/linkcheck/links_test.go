package linkcheck

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outside are names of documents and data that live outside the repository: the directory the
// ground truth was once read from, design documents and the seeds they grew from. A file that
// names them points the reader at something a clone does not have. (Spelt in pieces, so that this
// file does not name them itself.)
var outside = []string{
	"shared" + "/github", "shared" + "/DESIGN", "shared" + "/seeds", "shared" + "/STYLE",
	"seeds" + "/0", "DESIGN" + ".md", "DESIGN" + " §",
	"000_" + "132522ccf749bc82", "001_" + "165ed96fb08b3dfe", "002_" + "c46f2a36f00cec8e",
	"003_" + "6f77b572b200ce1e", "004_" + "d79c25db4c8aad76",
}

var (
	// inlineLink is a Markdown link or image, [text](target "title"), or an autolink <target>.
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refLink is a Markdown link reference definition, [label]: target.
	refLink = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)`)
	// htmlLink is an href or src attribute in Markdown's inline HTML.
	htmlLink = regexp.MustCompile(`(?i)\b(?:href|src)\s*=\s*"([^"]+)"`)
	// scheme starts an absolute URL (https:, mailto:); such a link is not a path.
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	// upward is a relative path that climbs (../), wherever it is written: code, YAML, text.
	upward = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.\-/\\])((?:\.\./)+[A-Za-z0-9_.\-/]*)`)
	// fence opens or closes a fenced code block.
	fence = regexp.MustCompile("^ {0,3}(```|~~~)")
	// codeSpan is inline code in Markdown.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
)

// problems lists what in file rel (a slash-separated path from the repository's root) with the
// given content leads out of the repository: a name of outside, a relative path climbing above
// the root, or (in Markdown) a link to a path that is not in the repository. exists says whether
// a slash-separated path from the root is in the repository.
func problems(rel string, content []byte, exists func(string) bool) []string {
	var out []string
	dir := path.Dir(rel)
	lines := strings.Split(string(content), "\n")
	markdown := strings.HasSuffix(strings.ToLower(rel), ".md")
	inFence := false
	for i, line := range lines {
		at := fmt.Sprintf("%s:%d", rel, i+1)
		for _, name := range outside {
			if strings.Contains(line, name) {
				out = append(out, fmt.Sprintf("%s: names %q, which is not in the repository", at, name))
			}
		}
		var targets []string // the Markdown links of the line
		if markdown && fence.MatchString(line) {
			inFence = !inFence
		} else if markdown && !inFence {
			text := codeSpan.ReplaceAllString(line, "")
			for _, re := range []*regexp.Regexp{inlineLink, refLink, htmlLink} {
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					targets = append(targets, m[1])
				}
			}
		}
	paths:
		for _, m := range upward.FindAllStringSubmatch(line, -1) {
			for _, target := range targets {
				if strings.HasPrefix(target, m[1]) {
					continue paths // a link, checked below
				}
			}
			if _, ok := resolve(dir, m[1]); !ok {
				out = append(out, fmt.Sprintf("%s: the path %q leads out of the repository", at, m[1]))
			}
		}
		for _, target := range targets {
			if scheme.MatchString(target) || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "//") {
				continue
			}
			p := target
			if j := strings.IndexAny(p, "#?"); j >= 0 {
				p = p[:j]
			}
			if unescaped, err := url.PathUnescape(p); err == nil {
				p = unescaped
			}
			if p == "" {
				continue
			}
			base := dir
			if strings.HasPrefix(p, "/") { // GitHub resolves /x from the repository's root
				base, p = ".", strings.TrimLeft(p, "/")
			}
			to, ok := resolve(base, p)
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s: the link %q leads out of the repository", at, target))
			case !exists(to):
				out = append(out, fmt.Sprintf("%s: the link %q points at %s, which is not in the repository", at, target, to))
			}
		}
	}
	return out
}

// resolve joins the relative path p to directory dir (both slash-separated, from the root) and
// reports whether the result stays inside the root.
func resolve(dir, p string) (string, bool) {
	to := path.Join(dir, p)
	return to, to != ".." && !strings.HasPrefix(to, "../")
}

// up climbs n directories; the made-up files below use it so that this file holds no path
// that climbs out of the repository from here.
func up(n int) string { return strings.Repeat("../", n) }

// TestProblems checks the detector itself on made-up files.
func TestProblems(t *testing.T) {
	exists := func(p string) bool {
		return map[string]bool{".": true, "README.md": true, "docs": true, "docs/language.md": true, "examples/auto-merge": true, "pipelines.schema.json": true}[p]
	}
	for _, tt := range []struct {
		name, file, content string
		want                []string // substrings of the problems, in order; none for a clean file
	}{
		{"links inside", "docs/a.md", "See [the language](language.md#trigger), [home](../README.md), [ex](../examples/auto-merge), [top](/README.md) and [web](https://example.com/../x).\n", nil},
		{"anchor and mail", "docs/a.md", "[up](#top) [me](mailto:a@b.c)\n", nil},
		{"link out", "docs/a.md", "The [design](../../outside/x.md).\n", []string{`the link "../../outside/x.md" leads out`}},
		{"link to nothing", "README.md", "[gone](docs/missing.md)\n", []string{`points at docs/missing.md, which is not in the repository`}},
		{"reference link out", "README.md", "[d]: ../DESIGN.txt\n", []string{`the link "../DESIGN.txt" leads out`}},
		{"html link out", "README.md", `<a href="../x.md">x</a>` + "\n", []string{`the link "../x.md" leads out`}},
		{"code is not a link, but a climbing path is a path", "docs/a.md", "```yaml\n# $schema=../pipelines.schema.json\n[x](../../nowhere)\n```\n", []string{`the path "../../nowhere" leads out`}},
		{"code span", "docs/a.md", "`[x](nowhere.md)` is not a link\n", nil},
		{"go path out", "cmd/internal/cli/a_test.go", `const dir = "` + up(4) + `elsewhere/webhooks"` + "\n", []string{`the path "` + up(4) + `elsewhere/webhooks" leads out`}},
		{"go path inside", "cmd/internal/cli/a_test.go", `glob("` + up(3) + `examples/*")` + "\n", nil},
		{"yaml path inside", "cmd/internal/cli/testdata/scenarios/x/scenario.yaml", "config: " + up(6) + "examples/auto-merge/pipelines.yaml\n", nil},
		{"yaml path out", "cmd/internal/cli/testdata/scenarios/x/scenario.yaml", "config: " + up(7) + "examples/auto-merge/pipelines.yaml\n", []string{"leads out"}},
		{"named outside", "engine/model.go", "// the language of " + outside[5] + " and " + outside[7] + "\n", []string{"names", "names"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := problems(tt.file, []byte(tt.content), exists)
			require.Len(t, got, len(tt.want), "%q", got)
			for i, w := range tt.want {
				assert.Contains(t, got[i], w)
			}
		})
	}
}

// TestNothingLeavesTheRepository reads every file of the repository (its tracked files, or every
// file when git is not there, as in a copy of the checkout) and fails on any link or path that
// leads out of it, so that a clone alone is complete: everything a reader is pointed at, and
// everything a test reads, is in it.
func TestNothingLeavesTheRepository(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the repository's root is two levels up")
	files := repositoryFiles(t, root)
	require.Greater(t, len(files), 100, "every file of the repository is read")
	present := map[string]bool{".": true}
	for _, f := range files {
		for p := f; p != "."; p = path.Dir(p) {
			present[p] = true
		}
	}
	exists := func(p string) bool { return present[p] }
	checked := 0
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the working tree, not yet in the index
			}
			require.NoError(t, err)
		}
		if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			continue // binary
		}
		checked++
		for _, p := range problems(rel, b, exists) {
			t.Error(p)
		}
	}
	assert.Greater(t, checked, 100)
}

// repositoryFiles lists the repository's files, slash-separated from root: the files git tracks,
// or, without git (a copy of the checkout), every file but those under .git.
func repositoryFiles(t *testing.T, root string) []string {
	t.Helper()
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil && len(out) > 0 {
		var files []string
		for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			files = append(files, f)
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	require.NoError(t, err)
	return files
}
