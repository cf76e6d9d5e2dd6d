package sim

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// A story that plays longer than chaosStoryTimeout hangs (it plays in a second or so, several
// under -race on a busy machine beside other stories); a
// shrink stops after chaosShrinkBudget with the smallest story found so far.
const (
	chaosStoryTimeout = 2 * time.Minute
	chaosShrinkBudget = 2 * time.Minute
)

// chaosCase is a story to play: its config, seed and steps (the tail is drawn as it plays).
type chaosCase struct {
	cfg   *chaosConfig
	seed  uint64
	steps []*chaosStep
	// sweepEnd: after the tail's events only time passes (playChaos).
	sweepEnd bool
}

// play plays the story in a directory of its own and judges it.
func (c chaosCase) play(ctx context.Context, dir string) (*chaosRun, []chaosFailure) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &chaosRun{err: err}, []chaosFailure{{invPlay, err.Error()}}
	}
	ctx, cancel := context.WithTimeout(ctx, chaosStoryTimeout)
	defer cancel()
	run := playChaos(ctx, dir, c)
	if ctx.Err() != nil && run.err == nil {
		run.err = fmt.Errorf("the story did not end within %s", chaosStoryTimeout)
	} else if ctx.Err() != nil {
		run.err = fmt.Errorf("the story did not end within %s: %w", chaosStoryTimeout, run.err)
	}
	if run.fake != nil {
		defer run.fake.Close()
	}
	return run, judge(run)
}

// shrink drops the story's steps one at a time, keeping each drop after which invariant
// still fails, until no single step can go. It returns the smallest failing story and its
// run (steps and tail as played).
func (c chaosCase) shrink(ctx context.Context, dir, invariant string) (chaosCase, *chaosRun, []chaosFailure) {
	best := c
	run, fs := c.play(ctx, filepath.Join(dir, "shrink-0"))
	tries := 0
	deadline := time.Now().Add(chaosShrinkBudget)
	for changed := true; changed && time.Now().Before(deadline); {
		changed = false
		for i := 0; i < len(best.steps) && time.Now().Before(deadline); i++ {
			if best.steps[i].kind == "open_pr" { // the pull request's opening stays
				continue
			}
			cand := chaosCase{cfg: c.cfg, seed: c.seed, steps: withoutStep(best.steps, i), sweepEnd: c.sweepEnd}
			tries++
			r, f := cand.play(ctx, filepath.Join(dir, fmt.Sprintf("shrink-%d", tries)))
			if slices.Contains(failedInvariants(f), invariant) {
				best, run, fs, changed = cand, r, f, true
				i--
			}
		}
	}
	return best, run, fs
}

// minimalScenario is the scenario of a played story, with the invariant it breaks, the seed
// and what failed in its header, and an expectation that the broken promise fails.
func minimalScenario(c chaosCase, run *chaosRun, invariant string, fs []chaosFailure) string {
	var title strings.Builder
	fmt.Fprintf(&title, "A chaos story (config %s, seed %d) that breaks %q:\n", c.cfg.name, c.seed, invariant)
	for _, f := range fs {
		if f.invariant == invariant {
			fmt.Fprintf(&title, "  %s\n", f.detail)
		}
	}
	title.WriteString("Steps after the faults (the tail) show the pull request should merge.")
	return renderStory(c.cfg, title.String(), run.steps, chaosExpect(c.cfg, invariant, run))
}

// chaosExpect is what simulate checks at the end of a minimal story: the promise it breaks,
// where the format can say it.
func chaosExpect(cfg *chaosConfig, invariant string, run *chaosRun) string {
	switch invariant {
	case invApproved, invClosed:
		return fmt.Sprintf("  prs: {%d: {merged: false}}\n", chaosPR)
	case invAgentHead:
		heads := map[string]bool{}
		for _, s := range run.snaps {
			if s.head != "" {
				heads[s.head] = true
			}
		}
		return fmt.Sprintf("  dispatches: [{agent: reviewer, count: %d}]  # a review of every head the pull request had\n", len(heads))
	case invConverges:
		return fmt.Sprintf("  prs: {%d: {merged: true}}\n", chaosPR)
	case invSweepStatus:
		return fmt.Sprintf("  prs: {%d: {merged: true, comment_contains: [%s]}}  # its state comment, which names the pipeline\n", chaosPR, chaosPipeline)
	case invDispatch:
		attempts := map[string]bool{}
		if run.fake != nil {
			for _, d := range run.fake.Dispatches() {
				attempts[fmt.Sprint(d.Inputs["run"], d.Inputs["stage"], d.Inputs["attempt"])] = true
			}
		}
		return fmt.Sprintf("  dispatches: [{agent: reviewer, count: %d}]  # one per attempt (agent.yml: of both agents where there are two)\n", len(attempts))
	case invOneComment:
		all, states := 0, 0
		if run.fake != nil {
			for _, c := range run.fake.Comments(chaosRepo, chaosPR) {
				if c.Author == ghfake.BotLogin {
					all++
					if state.HasMarker(c.Body) {
						states++
					}
				}
			}
		}
		return fmt.Sprintf("  prs: {%d: {comments: %d}}  # the action's comments with one state comment among them\n", chaosPR, all-states+1)
	}
	// The format cannot say this promise: the expectation states what happened, and TestChaos
	// judges the story.
	merged := len(run.snaps) > 0 && run.snaps[len(run.snaps)-1].merged
	return fmt.Sprintf("  prs: {%d: {merged: %t}}\n", chaosPR, merged)
}
