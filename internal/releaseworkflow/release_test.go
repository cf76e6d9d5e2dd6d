package releaseworkflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

const root = "../.."

type step struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

type job struct {
	Permissions map[string]string `yaml:"permissions"`
	Steps       []step            `yaml:"steps"`
}

type workflow struct {
	On struct {
		Push struct {
			Tags []string `yaml:"tags"`
		} `yaml:"push"`
	} `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]job    `yaml:"jobs"`
}

func readWorkflow(t *testing.T) workflow {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, ".github/workflows/release.yml"))
	require.NoError(t, err)
	var wf workflow
	require.NoError(t, yaml.Unmarshal(src, &wf))
	return wf
}

// script returns the run: script of the step of job with that id or name.
func (wf workflow) script(t *testing.T, jobName, stepName string) string {
	t.Helper()
	j, ok := wf.Jobs[jobName]
	require.True(t, ok, "no job %q", jobName)
	for _, s := range j.Steps {
		if s.ID == stepName || s.Name == stepName {
			require.NotEmpty(t, s.Run)
			return s.Run
		}
	}
	t.Fatalf("job %q has no step %q", jobName, stepName)
	return ""
}

func TestReleaseWorkflowPermissionsAndTrigger(t *testing.T) {
	wf := readWorkflow(t)
	// The major tag (v1) does not match, so moving it starts nothing.
	assert.Equal(t, []string{"v*.*.*"}, wf.On.Push.Tags)
	assert.NotNil(t, wf.Permissions, "the workflow grants nothing by default")
	assert.Empty(t, wf.Permissions)
	want := map[string]map[string]string{
		"prepare":  {"contents": "read"},
		"image":    {"contents": "read", "packages": "write", "id-token": "write", "attestations": "write"},
		"binaries": {"contents": "read", "id-token": "write", "attestations": "write"},
		"release":  {"contents": "write"},
	}
	require.Len(t, wf.Jobs, len(want))
	for name, j := range wf.Jobs {
		assert.Equal(t, want[name], j.Permissions, "permissions of job %s", name)
		for _, s := range j.Steps {
			if s.Uses != "" {
				_, ref, ok := strings.Cut(s.Uses, "@")
				assert.True(t, ok && ref != "", "%s: %s is not pinned", name, s.Uses)
			}
			// Expressions reach scripts only through env, never spliced into the text.
			assert.NotContains(t, s.Run, "${{", "%s: a run script with an expression", name)
		}
	}
}

// git runs git in dir and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(t)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// gitEnv is the environment of a git the test runs: no config of the machine's, and a
// global config of its own, so that nothing git writes there lands outside the test.
func gitEnv(t *testing.T) []string {
	global := filepath.Join(t.TempDir(), "gitconfig")
	require.NoError(t, os.WriteFile(global, nil, 0o644))
	return append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+global, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Maintainer", "GIT_AUTHOR_EMAIL=m@example.com",
		"GIT_COMMITTER_NAME=Maintainer", "GIT_COMMITTER_EMAIL=m@example.com")
}

// runScript runs a step's script as GitHub's runner does (bash -eo pipefail) in dir.
func runScript(t *testing.T, dir, script string, env map[string]string) (string, error) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "step.sh")
	require.NoError(t, os.WriteFile(f, []byte(script), 0o644))
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", f)
	cmd.Dir = dir
	cmd.Env = gitEnv(t)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// repo is a maintainer's clone and the remote the workflow pushes to.
type repo struct {
	t              *testing.T
	origin, source string
	actionYML      []byte
}

func newRepo(t *testing.T) *repo {
	actionYML, err := os.ReadFile(filepath.Join(root, "action.yml"))
	require.NoError(t, err)
	require.Contains(t, string(actionYML), "\n  image: Dockerfile\n", "main's action.yml builds the Dockerfile")
	r := &repo{t: t, origin: t.TempDir(), source: t.TempDir(), actionYML: actionYML}
	git(t, r.origin, "init", "--quiet", "--bare")
	git(t, r.source, "init", "--quiet", "-b", "main")
	git(t, r.source, "remote", "add", "origin", r.origin)
	return r
}

// commit commits a change on the current branch of the maintainer's clone.
func (r *repo) commit(file, content string) string {
	require.NoError(r.t, os.WriteFile(filepath.Join(r.source, "action.yml"), r.actionYML, 0o644))
	require.NoError(r.t, os.WriteFile(filepath.Join(r.source, file), []byte(content), 0o644))
	git(r.t, r.source, "add", ".")
	git(r.t, r.source, "commit", "--quiet", "-m", "change "+file)
	return git(r.t, r.source, "rev-parse", "HEAD")
}

// tag tags HEAD and pushes the branch and the tag, as a maintainer releasing.
func (r *repo) tag(version string) {
	git(r.t, r.source, "tag", version)
	git(r.t, r.source, "push", "--quiet", "origin", "HEAD", "refs/tags/"+version)
}

// checkout is what actions/checkout gives the job: every tag, HEAD at the tag's commit.
func (r *repo) checkout(version string) string {
	dir := r.t.TempDir()
	git(r.t, dir, "clone", "--quiet", r.origin, ".")
	git(r.t, dir, "checkout", "--quiet", "--detach", "refs/tags/"+version)
	return dir
}

// resolve names the commit a ref of the remote points at.
func (r *repo) resolve(ref string) string {
	return git(r.t, r.origin, "rev-parse", ref+"^{commit}")
}

func readOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		k, v, ok := strings.Cut(line, "=")
		require.True(t, ok, line)
		out[k] = v
	}
	return out
}

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// release runs the prepare job's check and the release job's tagging for version,
// as the workflow does on its tag, and returns prepare's outputs.
func (r *repo) release(wf workflow, version string) map[string]string {
	t := r.t
	dir := r.checkout(version)
	outputs := filepath.Join(t.TempDir(), "outputs")
	out, err := runScript(t, dir, wf.script(t, "prepare", "check"), map[string]string{
		"TAG": version, "GITHUB_OUTPUT": outputs,
	})
	require.NoError(t, err, out)
	o := readOutputs(t, outputs)

	dir = r.checkout(version)
	out, err = runScript(t, dir, wf.script(t, "release", "Commit action.yml with the image's digest and move the tags"), map[string]string{
		"VERSION": o["version"], "MAJOR": o["major"], "PRERELEASE": o["prerelease"],
		"IMAGE": "ghcr.io/org/pipeline-action", "DIGEST": digest,
		"GITHUB_SHA":          r.resolve("refs/tags/" + version),
		"GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary"),
	})
	require.NoError(t, err, out)
	return o
}

func TestReleaseMovesTags(t *testing.T) {
	wf := readWorkflow(t)
	r := newRepo(t)

	src100 := r.commit("a.go", "1")
	r.tag("v1.0.0")
	o := r.release(wf, "v1.0.0")
	assert.Equal(t, map[string]string{"version": "v1.0.0", "major": "v1", "prerelease": "false"}, o)

	// v1.0.0 is now a release commit: a child of the tagged commit that changes only
	// action.yml, which runs the image by digest. v1 names it; main is untouched.
	rel100 := r.resolve("refs/tags/v1.0.0")
	assert.NotEqual(t, src100, rel100)
	assert.Equal(t, src100, r.resolve(rel100+"^"))
	assert.Equal(t, "action.yml", git(t, r.origin, "diff", "--name-only", src100, rel100))
	released := git(t, r.origin, "show", rel100+":action.yml")
	assert.Contains(t, released+"\n", "\n  image: docker://ghcr.io/org/pipeline-action@"+digest+"\n")
	assert.NotContains(t, released, "Dockerfile")
	assert.Equal(t, rel100, r.resolve("refs/tags/v1"))
	assert.Equal(t, src100, r.resolve("refs/heads/main"))
	assert.Contains(t, git(t, r.origin, "log", "-1", "--format=%B", rel100), "built from "+src100)

	// The moved tag starts the workflow again only with a token other than
	// GITHUB_TOKEN; then prepare refuses the release commit and nothing is built.
	outputs := filepath.Join(t.TempDir(), "outputs")
	out, err := runScript(t, r.checkout("v1.0.0"), wf.script(t, "prepare", "check"),
		map[string]string{"TAG": "v1.0.0", "GITHUB_OUTPUT": outputs})
	require.Error(t, err)
	assert.Contains(t, out, "a release commit?")

	// A newer version moves v1.
	r.commit("a.go", "2")
	r.tag("v1.1.0")
	r.release(wf, "v1.1.0")
	rel110 := r.resolve("refs/tags/v1.1.0")
	assert.Equal(t, rel110, r.resolve("refs/tags/v1"))

	// A fix of an older line does not take v1 back.
	git(t, r.source, "checkout", "--quiet", "-b", "release-1.0", src100)
	src101 := r.commit("a.go", "1.0.1")
	r.tag("v1.0.1")
	r.release(wf, "v1.0.1")
	assert.Equal(t, src101, r.resolve("refs/tags/v1.0.1^"))
	assert.Equal(t, rel110, r.resolve("refs/tags/v1"))

	// v1.10.0 is newer than v1.9.0 (versions, not strings, are compared).
	git(t, r.source, "checkout", "--quiet", "main")
	r.commit("a.go", "9")
	r.tag("v1.9.0")
	r.release(wf, "v1.9.0")
	r.commit("a.go", "10")
	r.tag("v1.10.0")
	r.release(wf, "v1.10.0")
	assert.Equal(t, r.resolve("refs/tags/v1.10.0"), r.resolve("refs/tags/v1"))

	// A pre-release is released but does not move v1.
	r.commit("a.go", "11rc")
	r.tag("v1.11.0-rc.1")
	o = r.release(wf, "v1.11.0-rc.1")
	assert.Equal(t, "true", o["prerelease"])
	assert.Contains(t, git(t, r.origin, "show", "refs/tags/v1.11.0-rc.1:action.yml"), "docker://")
	assert.Equal(t, r.resolve("refs/tags/v1.10.0"), r.resolve("refs/tags/v1"))

	// A new major version starts its own major tag.
	r.commit("a.go", "2.0")
	r.tag("v2.0.0")
	o = r.release(wf, "v2.0.0")
	assert.Equal(t, "v2", o["major"])
	assert.Equal(t, r.resolve("refs/tags/v2.0.0"), r.resolve("refs/tags/v2"))
	assert.Equal(t, r.resolve("refs/tags/v1.10.0"), r.resolve("refs/tags/v1"))
}

func TestReleaseRefusesTagsThatNameNoVersion(t *testing.T) {
	wf := readWorkflow(t)
	r := newRepo(t)
	r.commit("a.go", "1")
	for _, tag := range []string{"v1.2", "v01.2.3", "v1.2.3.4", "v1.2.3-", "v1.2.3+build"} {
		r.tag(tag)
		outputs := filepath.Join(t.TempDir(), "outputs")
		out, err := runScript(t, r.checkout(tag), wf.script(t, "prepare", "check"),
			map[string]string{"TAG": tag, "GITHUB_OUTPUT": outputs})
		assert.Error(t, err, tag)
		assert.Contains(t, out, "is not a version tag", tag)
	}
}

// A tag pushed again while the release ran is not moved over.
func TestReleaseKeepsATagThatMoved(t *testing.T) {
	wf := readWorkflow(t)
	r := newRepo(t)
	first := r.commit("a.go", "1")
	r.tag("v1.0.0")
	dir := r.checkout("v1.0.0")
	r.commit("a.go", "2")
	git(t, r.source, "tag", "--force", "v1.0.0")
	git(t, r.source, "push", "--quiet", "--force", "origin", "HEAD", "refs/tags/v1.0.0")
	moved := r.resolve("refs/tags/v1.0.0")

	script := wf.script(t, "release", "Commit action.yml with the image's digest and move the tags")
	env := map[string]string{
		"VERSION": "v1.0.0", "MAJOR": "v1", "PRERELEASE": "false",
		"IMAGE": "ghcr.io/org/pipeline-action", "DIGEST": digest,
		"GITHUB_SHA": first, "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary"),
	}
	// The checkout still names the first commit: the lease refuses the push.
	out, err := runScript(t, dir, script, env)
	require.Error(t, err, out)
	assert.Contains(t, out, "stale info")
	assert.Equal(t, moved, r.resolve("refs/tags/v1.0.0"))
	assert.Equal(t, "", git(t, r.origin, "tag", "--list", "v1"))

	// A checkout made after the move no longer names the run's commit.
	out, err = runScript(t, r.checkout("v1.0.0"), script, env)
	require.Error(t, err)
	assert.Contains(t, out, "v1.0.0 no longer names "+first)
	assert.Equal(t, moved, r.resolve("refs/tags/v1.0.0"))
}

func TestReleaseNotes(t *testing.T) {
	wf := readWorkflow(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(`# Changelog

## [Unreleased]

- Not yet.

## [1.1.0] - 2026-02-01

### Added

- The thing.

## [1.0.0] - 2026-01-01

- The first.
`), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "dist"), 0o755))
	for _, f := range []string{"SHA256SUMS", "pipeline-action_v1.1.0_linux_amd64"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "dist", f), []byte(f), 0o644))
	}
	// gh records its arguments and the notes it was given.
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gh"), []byte(`#!/bin/sh
printf '%s\n' "$@" >gh.args
cp notes.md gh.notes
`), 0o755))

	script := wf.script(t, "release", "Create the GitHub release")
	env := map[string]string{
		"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH"), "GH_TOKEN": "t",
		"VERSION": "v1.1.0", "PRERELEASE": "false", "GITHUB_REPOSITORY": "org/pipeline-action",
		"IMAGE": "ghcr.io/org/pipeline-action", "DIGEST": digest,
	}
	out, err := runScript(t, dir, script, env)
	require.NoError(t, err, out)
	args, err := os.ReadFile(filepath.Join(dir, "gh.args"))
	require.NoError(t, err)
	assert.Equal(t, "release\ncreate\nv1.1.0\n--verify-tag\n--title\nv1.1.0\n--notes-file\nnotes.md\n"+
		"dist/SHA256SUMS\ndist/pipeline-action_v1.1.0_linux_amd64\n", string(args))
	notes, err := os.ReadFile(filepath.Join(dir, "gh.notes"))
	require.NoError(t, err)
	assert.Contains(t, string(notes), "Image: `ghcr.io/org/pipeline-action@"+digest+"`")
	assert.Contains(t, string(notes), "gh attestation verify oci://ghcr.io/org/pipeline-action@"+digest+" --repo org/pipeline-action")
	assert.Contains(t, string(notes), "### Added\n\n- The thing.")
	assert.NotContains(t, string(notes), "Not yet")
	assert.NotContains(t, string(notes), "The first")

	env["VERSION"], env["PRERELEASE"] = "v1.2.0-rc.1", "true"
	out, err = runScript(t, dir, script, env)
	require.NoError(t, err, out)
	args, err = os.ReadFile(filepath.Join(dir, "gh.args"))
	require.NoError(t, err)
	assert.Contains(t, string(args), "\n--prerelease\n")
	notes, err = os.ReadFile(filepath.Join(dir, "gh.notes"))
	require.NoError(t, err)
	assert.NotContains(t, string(notes), "The thing", "no section for this version: none is copied")
}
