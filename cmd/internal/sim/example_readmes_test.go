package sim

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// namedScenario is a scenario file a README names, bare or by its path from the root.
	namedScenario = regexp.MustCompile(`\b(?:examples/[a-z0-9-]+/)?scenario(?:-[a-z0-9-]+)?\.yaml\b`)
	// simulateCommand is a simulate command line a README shows, up to the end of its code
	// span or a shell comment.
	simulateCommand = regexp.MustCompile("pipeline-action simulate\\b([^`#\\n]*)")
)

// readmeCommand is one simulate command of an example's README, its arguments as written (paths
// from the repository's root).
type readmeCommand struct{ args []string }

// plays is the scenario file the command plays, from the root: its --scenario, or DIR's
// scenario.yaml.
func (c readmeCommand) plays() string {
	dir := ""
	for i := 0; i < len(c.args); i++ {
		switch a := c.args[i]; {
		case a == "--scenario" && i+1 < len(c.args):
			return c.args[i+1]
		case strings.HasPrefix(a, "--scenario="):
			return strings.TrimPrefix(a, "--scenario=")
		case a == "--config":
			i++
		case !strings.HasPrefix(a, "-"):
			dir = a
		}
	}
	return filepath.ToSlash(filepath.Join(dir, "scenario.yaml"))
}

// readmeScenarios reads an example's README (in the example's directory, named from the root)
// and returns the scenario files it names, as paths from the root, and its simulate commands.
func readmeScenarios(example string, readme []byte) (named []string, commands []readmeCommand) {
	for _, m := range namedScenario.FindAllString(string(readme), -1) {
		if !strings.Contains(m, "/") {
			m = example + "/" + m
		}
		if !slices.Contains(named, m) {
			named = append(named, m)
		}
	}
	for _, m := range simulateCommand.FindAllStringSubmatch(string(readme), -1) {
		commands = append(commands, readmeCommand{strings.Fields(m[1])})
	}
	return named, commands
}

// TestReadmeScenarios checks the reading of a made-up README.
func TestReadmeScenarios(t *testing.T) {
	readme := "`scenario.yaml` plays the happy path; `scenario-fails.yaml` the other.\n\n```sh\n" +
		"go run ./cmd/pipeline-action simulate examples/x --stats  # with calls\n" +
		"go run ./cmd/pipeline-action simulate --config examples/x/pipelines.yaml --scenario examples/x/scenario-fails.yaml\n```\n" +
		"Or `go run ./cmd/pipeline-action simulate examples/x -q`.\n"
	named, commands := readmeScenarios("examples/x", []byte(readme))
	assert.Equal(t, []string{"examples/x/scenario.yaml", "examples/x/scenario-fails.yaml"}, named)
	require.Len(t, commands, 3)
	assert.Equal(t, []string{"examples/x", "--stats"}, commands[0].args)
	assert.Equal(t, "examples/x/scenario.yaml", commands[0].plays())
	assert.Equal(t, "examples/x/scenario-fails.yaml", commands[1].plays())
	assert.Equal(t, []string{"examples/x", "-q"}, commands[2].args)
}

// TestExampleReadmesPlay holds every example's README to its directory: each scenario file it
// names is there, each scenario file there is named or played by one of its commands, and each
// simulate command it shows plays green as written.
func TestExampleReadmesPlay(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	dirs, err := filepath.Glob(filepath.Join(root, "examples", "*"))
	require.NoError(t, err)
	played := 0
	for _, dir := range dirs {
		example := "examples/" + filepath.Base(dir)
		readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		named, commands := readmeScenarios(example, readme)
		for _, f := range named {
			_, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
			assert.NoError(t, err, "%s/README.md names %s", example, f)
		}
		files, err := filepath.Glob(filepath.Join(dir, "scenario*.yaml"))
		require.NoError(t, err)
		for _, f := range files {
			rel := example + "/" + filepath.Base(f)
			said := slices.Contains(named, rel) || slices.ContainsFunc(commands, func(c readmeCommand) bool { return c.plays() == rel })
			assert.True(t, said, "%s/README.md does not say what %s shows, nor plays it", example, filepath.Base(f))
		}
		for _, c := range commands {
			t.Run(example+"/"+strings.Join(c.args, "_"), func(t *testing.T) {
				t.Parallel() // each plays against its own fake; -parallel bounds how many at once
				args := make([]string, len(c.args))
				for i, a := range c.args {
					if strings.HasPrefix(a, "examples/") {
						a = filepath.Join(root, filepath.FromSlash(a))
					}
					args[i] = a
				}
				var out, errOut bytes.Buffer
				code := Main(t.Context(), args, &out, &errOut)
				require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
				assert.Contains(t, out.String(), "PASS: every expectation holds")
			})
			played++
		}
	}
	assert.Greater(t, played, 20, "the examples' commands are played")
}
