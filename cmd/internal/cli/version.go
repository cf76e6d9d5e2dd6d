package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/org/pipeline-action/cmd/internal/run"
)

// version is set when a release is built:
//
//	go build -ldflags "-X github.com/org/pipeline-action/cmd/internal/cli.version=v1.2.3"
//
// Without it the version comes from the build information (see Version).
var version string

// readBuildInfo is runtime/debug.ReadBuildInfo; tests replace it.
var readBuildInfo = debug.ReadBuildInfo

// Version is the version of this binary: the one set at build time; else the
// main module's version when it was built as a module dependency (go install
// ...@v1.2.3) or from a tagged checkout; else the VCS revision it was built from
// (with "+dirty" for uncommitted changes); else "dev".
func Version() string {
	if version != "" {
		return version
	}
	info, ok := readBuildInfo()
	if !ok {
		return "dev"
	}
	return versionFromBuildInfo(info)
}

func versionFromBuildInfo(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return "dev"
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if modified {
		revision += "+dirty"
	}
	return revision
}

const versionUsage = `usage: pipeline-action version

Print the version of pipeline-action and exit.
`

func versionMain(args []string, stdout, stderr io.Writer) int {
	rest, code, ok := run.ParseFlags(run.NewFlagSet("version", stderr), versionUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "pipeline-action version: takes no arguments, got %q\n\n%s", rest[0], versionUsage)
		return 2
	}
	fmt.Fprintln(stdout, Version())
	return 0
}
