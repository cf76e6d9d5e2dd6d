package releaseworkflow

import (
	"maps"
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
		Push     *struct{} `yaml:"push"`
		Dispatch struct {
			Inputs map[string]struct {
				Required bool   `yaml:"required"`
				Type     string `yaml:"type"`
			} `yaml:"inputs"`
		} `yaml:"workflow_dispatch"`
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
	// Run by hand with the version to publish; no push, of a tag or anything else, starts it.
	assert.Nil(t, wf.On.Push)
	assert.Len(t, wf.On.Dispatch.Inputs, 1)
	assert.True(t, wf.On.Dispatch.Inputs["version"].Required)
	assert.Equal(t, "string", wf.On.Dispatch.Inputs["version"].Type)
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

// push pushes the maintainer's branch and returns its head: the commit a release run
// on that branch checks out (GITHUB_SHA).
func (r *repo) push() string {
	git(r.t, r.source, "push", "--quiet", "origin", "HEAD")
	return git(r.t, r.source, "rev-parse", "HEAD")
}

// checkout is what actions/checkout with fetch-depth 0 gives a job: every tag, HEAD at sha.
func (r *repo) checkout(sha string) string {
	dir := r.t.TempDir()
	git(r.t, dir, "clone", "--quiet", r.origin, ".")
	git(r.t, dir, "checkout", "--quiet", "--detach", sha)
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

const tagStep = "Commit action.yml with the image's digest and tag it"

// prepare runs the prepare job's check for version on a checkout of sha.
func (r *repo) prepare(wf workflow, sha, version string) (map[string]string, string, error) {
	outputs := filepath.Join(r.t.TempDir(), "outputs")
	out, err := runScript(r.t, r.checkout(sha), wf.script(r.t, "prepare", "check"), map[string]string{
		"TAG": version, "GITHUB_OUTPUT": outputs,
	})
	if err != nil {
		return nil, out, err
	}
	return readOutputs(r.t, outputs), out, nil
}

// tagEnv is the environment of the release job's tagging step for prepare's outputs o.
func tagEnv(t *testing.T, sha string, o map[string]string) map[string]string {
	return map[string]string{
		"VERSION": o["version"], "MAJOR": o["major"], "PRERELEASE": o["prerelease"],
		"IMAGE": "ghcr.io/org/pipeline-action", "DIGEST": digest,
		"GITHUB_SHA": sha, "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary"),
	}
}

// release runs the prepare job's check and the release job's tagging for version, as
// the workflow does when a maintainer runs it on the branch the clone has checked out,
// and returns prepare's outputs.
func (r *repo) release(wf workflow, version string) map[string]string {
	t := r.t
	sha := r.push()
	o, out, err := r.prepare(wf, sha, version)
	require.NoError(t, err, out)
	out, err = runScript(t, r.checkout(sha), wf.script(t, "release", tagStep), tagEnv(t, sha, o))
	require.NoError(t, err, out)
	return o
}

// tags maps every tag of the remote to the commit it names.
func (r *repo) tags() map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(git(r.t, r.origin, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/tags"), "\n") {
		if name, _, ok := strings.Cut(line, " "); ok {
			out[name] = r.resolve("refs/tags/" + name)
		}
	}
	return out
}

func TestReleaseTagsAndMovesOnlyTheMajor(t *testing.T) {
	wf := readWorkflow(t)
	r := newRepo(t)
	// Every version tag, as first published; none may ever name another commit.
	published := map[string]string{}
	release := func(version string) map[string]string {
		o := r.release(wf, version)
		published[version] = r.resolve("refs/tags/" + version)
		return o
	}

	src100 := r.commit("a.go", "1")
	o := release("v1.0.0")
	assert.Equal(t, map[string]string{"version": "v1.0.0", "major": "v1", "prerelease": "false"}, o)

	// v1.0.0 is a release commit: a child of the run's commit that changes only
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

	// A run on a release commit is refused before anything is built.
	_, out, err := r.prepare(wf, rel100, "v1.0.1")
	require.Error(t, err)
	assert.Contains(t, out, "a release commit?")

	// A newer version moves v1.
	r.commit("a.go", "2")
	release("v1.1.0")
	rel110 := r.resolve("refs/tags/v1.1.0")
	assert.Equal(t, rel110, r.resolve("refs/tags/v1"))

	// A fix of an older line, released from its branch, does not take v1 back.
	git(t, r.source, "checkout", "--quiet", "-b", "release-1.0", src100)
	src101 := r.commit("a.go", "1.0.1")
	release("v1.0.1")
	assert.Equal(t, src101, r.resolve("refs/tags/v1.0.1^"))
	assert.Equal(t, rel110, r.resolve("refs/tags/v1"))

	// v1.10.0 is newer than v1.9.0 (versions, not strings, are compared).
	git(t, r.source, "checkout", "--quiet", "main")
	r.commit("a.go", "9")
	release("v1.9.0")
	r.commit("a.go", "10")
	release("v1.10.0")
	assert.Equal(t, r.resolve("refs/tags/v1.10.0"), r.resolve("refs/tags/v1"))

	// A pre-release is released but does not move v1.
	r.commit("a.go", "11rc")
	o = release("v1.11.0-rc.1")
	assert.Equal(t, "true", o["prerelease"])
	assert.Contains(t, git(t, r.origin, "show", "refs/tags/v1.11.0-rc.1:action.yml"), "docker://")
	assert.Equal(t, r.resolve("refs/tags/v1.10.0"), r.resolve("refs/tags/v1"))

	// A new major version starts its own major tag.
	r.commit("a.go", "2.0")
	o = release("v2.0.0")
	assert.Equal(t, "v2", o["major"])
	assert.Equal(t, r.resolve("refs/tags/v2.0.0"), r.resolve("refs/tags/v2"))
	assert.Equal(t, r.resolve("refs/tags/v1.10.0"), r.resolve("refs/tags/v1"))

	// Seven releases later every version tag names the commit of its publication, and
	// the only other tags are the majors.
	want := maps.Clone(published)
	want["v1"], want["v2"] = published["v1.10.0"], published["v2.0.0"]
	assert.Equal(t, want, r.tags())
}

func TestReleaseRefusesTagsThatNameNoVersion(t *testing.T) {
	wf := readWorkflow(t)
	r := newRepo(t)
	r.commit("a.go", "1")
	sha := r.push()
	for _, tag := range []string{"v1.2", "v01.2.3", "v1.2.3.4", "v1.2.3-", "v1.2.3+build", "1.2.3", "v1"} {
		_, out, err := r.prepare(wf, sha, tag)
		assert.Error(t, err, tag)
		assert.Contains(t, out, "is not a version tag", tag)
	}
	assert.Empty(t, r.tags())
}

// A published version is never released again: prepare refuses it before anything is
// built, and a tag that appears while a run builds is not replaced by its push.
func TestReleaseNeverReplacesAPublishedVersion(t *testing.T) {
	wf := readWorkflow(t)
	r := newRepo(t)
	r.commit("a.go", "1")
	r.release(wf, "v1.0.0")
	published := r.tags()

	sha := r.commit("a.go", "2")
	r.push()
	_, out, err := r.prepare(wf, sha, "v1.0.0")
	require.Error(t, err)
	assert.Contains(t, out, "v1.0.0 is published already")

	// Two runs for v1.1.0 pass prepare; the first to push publishes it.
	o, out, err := r.prepare(wf, sha, "v1.1.0")
	require.NoError(t, err, out)
	late := r.checkout(sha)
	out, err = runScript(t, r.checkout(sha), wf.script(t, "release", tagStep), tagEnv(t, sha, o))
	require.NoError(t, err, out)
	published = r.tags()

	// The second fails whole (--atomic): neither v1.1.0 nor v1 moves. It runs at another
	// time than the first, as a real second run does: within the same second both would make
	// the same release commit, and a push of a tag to the commit it names changes nothing.
	lateEnv := tagEnv(t, sha, o)
	lateEnv["GIT_AUTHOR_DATE"], lateEnv["GIT_COMMITTER_DATE"] = "2030-01-01T00:00:00Z", "2030-01-01T00:00:00Z"
	out, err = runScript(t, late, wf.script(t, "release", tagStep), lateEnv)
	require.Error(t, err, out)
	assert.Contains(t, out, "already exists")
	assert.Equal(t, published, r.tags())

	// A checkout made after the publication refuses before committing anything.
	out, err = runScript(t, r.checkout(sha), wf.script(t, "release", tagStep), tagEnv(t, sha, o))
	require.Error(t, err)
	assert.Contains(t, out, "v1.1.0 is published already")
	assert.Equal(t, published, r.tags())
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
