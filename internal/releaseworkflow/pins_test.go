package releaseworkflow

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A third-party action is named by a full commit SHA, which nobody can move, with the
// version it is as a comment for people and Dependabot.
var pinned = regexp.MustCompile(`^([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)$`)

// uses lists the values of the `uses:` lines of src, comments included.
func uses(src string) []string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if v, ok := strings.CutPrefix(line, "uses:"); ok {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

func TestThirdPartyActionsArePinnedBySHA(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, ".github/workflows/*.yml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	// One SHA per action and version across the workflows, so an update moves them all.
	shas := map[string]string{}
	seen := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, u := range uses(string(src)) {
			if u == "./" || strings.HasPrefix(u, "docker://") {
				continue
			}
			seen++
			m := pinned.FindStringSubmatch(u)
			if !assert.NotNil(t, m, "%s: %q is not pinned as owner/name@<40-hex SHA> # vX.Y.Z", filepath.Base(f), u) {
				continue
			}
			key := m[1] + " " + m[3]
			if prev, ok := shas[key]; ok {
				assert.Equal(t, prev, m[2], "%s: %s %s pinned at two SHAs", filepath.Base(f), m[1], m[3])
			}
			shas[key] = m[2]
		}
	}
	src, err := os.ReadFile(filepath.Join(root, ".github/workflows/release.yml"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(uses(string(src))), 5, "the release workflow's actions are read")
	assert.Greater(t, seen, 0)
}

func TestPinCheckRefusesMovableRefs(t *testing.T) {
	for _, u := range []string{
		"actions/checkout@v4",
		"actions/checkout@v4.2.2",
		"actions/checkout@main",
		"actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683",
		"actions/checkout@11bd719 # v4.2.2",
		"actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4",
	} {
		assert.Nil(t, pinned.FindStringSubmatch(u), u)
	}
	assert.NotNil(t, pinned.FindStringSubmatch("actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"))
	assert.Equal(t, []string{"./", "a/b@c # v1.0.0"}, uses("steps:\n  - uses: ./\n  - name: x\n    uses: a/b@c # v1.0.0\n"))
}

// forcing finds what in a script could replace a ref that exists: a forced tag, a
// forced or `+` push, a deleted ref.
var forcing = regexp.MustCompile(`--force\b|(^|\s)-f\b|\+refs/|--delete\b|(^|\s)-d\b|--mirror\b|--prune\b`)

// The release job creates vX.Y.Z and never replaces it: the only ref it forces is the
// major tag. TestReleaseTagsAndMovesOnlyTheMajor plays the same on a git remote.
func TestReleaseForcesOnlyTheMajorTag(t *testing.T) {
	wf := readWorkflow(t)
	var forced []string
	for name, j := range wf.Jobs {
		for _, s := range j.Steps {
			for _, line := range strings.Split(s.Run, "\n") {
				line = strings.TrimSpace(line)
				if strings.HasPrefix(line, "#") || !forcing.MatchString(line) {
					continue
				}
				forced = append(forced, name+": "+line)
			}
		}
	}
	assert.ElementsMatch(t, []string{
		`release: git tag --force "$MAJOR"`,
		`release: refs+=("+refs/tags/$MAJOR")`,
	}, forced, "lines of the release workflow that force a ref")

	script := wf.script(t, "release", tagStep)
	assert.Contains(t, script, `git tag --annotate "$VERSION" -m "$VERSION"`)
	assert.Contains(t, script, `refs=("refs/tags/$VERSION")`)
	assert.Contains(t, script, `git push --atomic origin "${refs[@]}"`)
}
