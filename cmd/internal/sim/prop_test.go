package sim

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestProperty plays random stories against random valid configs and holds each to the
// property judges. PIPELINE_ACTION_PROP_STORIES sets how many (default
// propDefaultStories), PIPELINE_ACTION_PROP_SEED the first seed (story i has seed+i: its
// config and its story), PIPELINE_ACTION_PROP_WORKERS how many stories play at once
// (default: every CPU). The first failing story of each judge is shrunk to a minimal
// scenario, written to a directory that `pipeline-action simulate DIR` replays, and printed.
func TestProperty(t *testing.T) {
	stories := propEnv(t, "PIPELINE_ACTION_PROP_STORIES", propDefaultStories)
	seed := uint64(propEnv(t, "PIPELINE_ACTION_PROP_SEED", propDefaultSeed))
	workers := propEnv(t, "PIPELINE_ACTION_PROP_WORKERS", runtime.GOMAXPROCS(0))
	ctx := t.Context()
	tmp := t.TempDir()
	start := time.Now()
	var mu sync.Mutex
	failed := map[string]int{}
	first := map[string]propFound{}
	merged := 0
	playSeeds(seed, stories, workers, func(s uint64) {
		c := propCase{cfg: generateConfig(s), seed: s}
		if err := checkConfig([]scenarioFile{{local: "pipelines.yaml", repo: ".github/pipelines.yaml", src: []byte(c.cfg.text)}}); err != nil {
			t.Errorf("seed %d: the generator drew a config validate refuses:\n%v\n%s", s, err, c.cfg.text)
			return
		}
		c.steps = generatePropStory(c.cfg, s)
		run, fs := c.play(ctx, filepath.Join(tmp, strconv.FormatUint(s, 10)))
		mu.Lock()
		defer mu.Unlock()
		if run.fake != nil && len(run.fake.Merges()) > 0 {
			merged++
		}
		for _, j := range propFailedJudges(fs) {
			failed[j]++
			if f, ok := first[j]; !ok || s < f.c.seed {
				first[j] = propFound{c: c, played: run.steps, merged: len(run.fake.Merges()) > 0, fs: fs}
			}
		}
	})
	d := time.Since(start)
	t.Logf("%d stories (%d merged) in %s with %d workers: %.1f stories/s", stories, merged, d.Round(time.Millisecond), workers, float64(stories)/d.Seconds())
	for _, j := range propJudges {
		if failed[j] > 0 {
			propReport(ctx, t, filepath.Join(tmp, "shrink-"+j), j, failed[j], stories, first[j])
		}
	}
}

// propDefaultStories and propDefaultSeed are the run of a plain `go test`: a dozen stories,
// about a minute under -race on two busy cores. Before the fixes of issue 27 landed, this
// window held stories that break items 1 (seeds 70, 72), 5 (80) and 6 (69, 75).
const (
	propDefaultStories = 12
	propDefaultSeed    = 69
)

func propEnv(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive whole number", name, v)
	}
	return n
}

// propFound is the first story that broke a judge: its case, the steps it played (the tail
// included) and what the judges found.
type propFound struct {
	c      propCase
	played []*propStep
	merged bool
	fs     []propFailure
}

// propReport shrinks the first story that broke judge j (a known open defect only with
// PIPELINE_ACTION_PROP_SHRINK_KNOWN set: its story is printed as played), writes it out and
// reports it: an error, or a log line for a judge in propKnownOpen.
func propReport(ctx context.Context, t *testing.T, dir, j string, n, stories int, found propFound) {
	known, isKnown := propKnownOpen[j]
	c, small, fs := found.c, found.c, found.fs
	played, merged := found.played, found.merged
	if !isKnown || os.Getenv("PIPELINE_ACTION_PROP_SHRINK_KNOWN") != "" {
		if s, run, sfs := c.shrink(ctx, dir, j); run != nil {
			small, fs = s, sfs
			played, merged = run.steps, run.fake != nil && len(run.fake.Merges()) > 0
		} else {
			t.Logf("%s: the story of seed %d did not break it when played again; it is printed as first played", j, c.seed)
		}
	}
	text := propScenario(small, played, merged, j, fs)
	out, err := os.MkdirTemp("", "pipeline-action-prop-"+j+"-")
	if err == nil {
		err = writePropDir(out, small.cfg, text)
	}
	if err != nil {
		out = fmt.Sprintf("(not written: %v)", err)
	}
	msg := fmt.Sprintf("%s: broken in %d of %d stories; the first (seed %d), %d steps of its own, is %s/scenario.yaml (replay: go run ./cmd/pipeline-action simulate %s):\n%s\n%s",
		j, n, stories, c.seed, len(small.steps), out, out, text, propDetails(fs, j))
	if isKnown {
		t.Logf("KNOWN OPEN (%s) — %s", known, msg)
		return
	}
	t.Error(msg)
}

func propDetails(fs []propFailure, j string) string {
	return failureLines(fs, j, func(f propFailure) (string, string) { return f.judge, f.detail })
}

func propFailedJudges(fs []propFailure) []string {
	var out []string
	for _, f := range fs {
		if !slices.Contains(out, f.judge) {
			out = append(out, f.judge)
		}
	}
	return out
}

// propCase is a story to play: its config, seed and steps (the tail is drawn as it plays).
type propCase struct {
	cfg   *propConfig
	seed  uint64
	steps []*propStep
}

// propStoryTimeout bounds a story (it plays in about a second); propShrinkBudget a shrink.
const (
	propStoryTimeout = time.Minute
	propShrinkBudget = 2 * time.Minute
)

// play plays the story in a directory of its own, judges it, and removes the directory.
func (c propCase) play(ctx context.Context, dir string) (*propRun, []propFailure) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &propRun{err: err}, []propFailure{{propPlays, err.Error()}}
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, propStoryTimeout)
	defer cancel()
	run := playProp(ctx, dir, c.cfg, c.steps)
	if ctx.Err() != nil {
		run.err = fmt.Errorf("the story did not end within %s: %v", propStoryTimeout, run.err)
	}
	if run.fake != nil {
		defer run.fake.Close()
	}
	return run, judgeProp(run)
}

// shrink drops the story's steps one at a time (the opening stays), keeping each drop after
// which judge j still fails, until no single step can go or the budget is spent. A nil run:
// the story did not break j when played again.
func (c propCase) shrink(ctx context.Context, dir, j string) (propCase, *propRun, []propFailure) {
	best := c
	run, fs := c.play(ctx, filepath.Join(dir, "0"))
	if !slices.Contains(propFailedJudges(fs), j) {
		return c, nil, nil // it does not play alike twice: nothing to shrink
	}
	deadline := time.Now().Add(propShrinkBudget)
	tries := 0
	for changed := true; changed && time.Now().Before(deadline); {
		changed = false
		for i := 1; i < len(best.steps) && time.Now().Before(deadline); i++ {
			cand := propCase{cfg: c.cfg, seed: c.seed, steps: propWithout(best.steps, i)}
			tries++
			r, f := cand.play(ctx, filepath.Join(dir, strconv.Itoa(tries)))
			if slices.Contains(propFailedJudges(f), j) {
				best, run, fs, changed = cand, r, f, true
				i--
			}
		}
	}
	return best, run, fs
}

// propWithout is steps without the i-th and the redeliveries of it.
func propWithout(steps []*propStep, i int) []*propStep {
	out := make([]*propStep, 0, len(steps))
	for k, st := range steps {
		if k != i && !(st.kind == "redeliver" && st.ref == steps[i]) {
			out = append(out, st)
		}
	}
	return out
}

// propScenario is the scenario of a played story (tail included), with the judge it breaks
// and why in its header, and an expectation: for a merge that should not have happened,
// that it did not (so simulate fails where the defect is); else what happened.
func propScenario(c propCase, played []*propStep, merged bool, j string, fs []propFailure) string {
	var title strings.Builder
	fmt.Fprintf(&title, "A property story (config and story seed %d) that breaks %q:\n", c.seed, j)
	for _, f := range fs {
		if f.judge == j {
			fmt.Fprintf(&title, "  %s\n", f.detail)
		}
	}
	expect := fmt.Sprintf("  prs: {%d: {merged: %t}}\n", propPR, merged)
	switch j {
	case propPathOwn, propPathChild, propEdited, propTrigger, propUnclaimed, propSkipped:
		expect = fmt.Sprintf("  prs: {%d: {merged: false}}   # the merge the judge refuses\n", propPR)
	}
	return renderProp(c.cfg, title.String(), played, expect)
}
