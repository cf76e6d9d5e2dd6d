package cli

import (
	"bytes"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionFromBuildInfo(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"module version", debug.BuildInfo{Main: debug.Module{Version: "v1.4.2"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}}}, "v1.4.2"},
		{"pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v1.4.3-0.20260101120000-0123456789ab"}},
			"v1.4.3-0.20260101120000-0123456789ab"},
		{"revision", debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}}, "0123456789ab"},
		{"dirty revision", debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, {Key: "vcs.revision", Value: rev}}}, "0123456789ab+dirty"},
		{"nothing known", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"empty", debug.BuildInfo{}, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, versionFromBuildInfo(&tt.info))
		})
	}
}

func setVersion(t *testing.T, v string, info *debug.BuildInfo) {
	t.Helper()
	oldV, oldRead := version, readBuildInfo
	t.Cleanup(func() { version, readBuildInfo = oldV, oldRead })
	version = v
	readBuildInfo = func() (*debug.BuildInfo, bool) { return info, info != nil }
}

func TestVersionCommand(t *testing.T) {
	env := func(string) string { return "" }
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := Main(args, nil, &out, &errOut, env)
		return code, out.String(), errOut.String()
	}

	// Set at build time: wins over the build information.
	setVersion(t, "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}})
	code, out, errOut := run("version")
	assert.Equal(t, 0, code)
	assert.Equal(t, "v1.2.3\n", out)
	assert.Empty(t, errOut)
	code, out, _ = run("--version")
	assert.Equal(t, 0, code)
	assert.Equal(t, "v1.2.3\n", out)

	// Not set: the module version of the build.
	setVersion(t, "", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.1"}})
	_, out, _ = run("version")
	assert.Equal(t, "v1.0.1\n", out)

	// No build information at all.
	setVersion(t, "", nil)
	_, out, _ = run("version")
	assert.Equal(t, "dev\n", out)

	code, out, _ = run("version", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "usage: pipeline-action version")

	code, out, errOut = run("version", "extra")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, `takes no arguments, got "extra"`)

	code, out, _ = run("help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "version                 print the version")
}
