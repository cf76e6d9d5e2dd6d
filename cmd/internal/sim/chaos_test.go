package sim

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Flags of TestChaos: `go test ./cmd/internal/sim -run TestChaos -chaos.stories 5000` plays
// thousands of stories; -chaos.seed starts from another seed.
var (
	chaosStories  = flag.Int("chaos.stories", chaosDefaultStories, "how many chaos stories TestChaos plays")
	chaosLog      = flag.Bool("chaos.log", false, "TestChaos prints the end of simulate's output of each minimal story")
	chaosLogLines = flag.Int("chaos.loglines", 150, "how many lines of it -chaos.log prints")
	chaosSeed     = flag.Uint64("chaos.seed", 1, "the seed of TestChaos's first story (story i has seed+i)")
	chaosShrink   = flag.Bool("chaos.shrink", true, "TestChaos shrinks the first failing story of each broken promise (.ci/mutations turns it off: it only counts)")
	chaosWorkers  = flag.Int("chaos.workers", runtime.GOMAXPROCS(0), "how many chaos stories TestChaos plays at once")
)

// chaosDefaultStories is the budget of a plain `go test`: it keeps TestChaos near a minute
// under -race on a small shared machine.
const chaosDefaultStories = 64

// TestChaos plays randomized stories over the chaos configs — lost, repeated and concurrent
// events, faults on reads and writes, pushes, late reports, sweeps — and holds each to the
// promises of chaosInvariants. The first failing story of each broken promise is shrunk
// to a minimal scenario, written out and printed, to replay with `simulate DIR`.
func TestChaos(t *testing.T) {
	ctx := t.Context()
	tmp := t.TempDir()
	start := time.Now()
	failed, first := playChaosStories(ctx, tmp, max(1, *chaosWorkers))
	t.Logf("%d stories in %s with %d workers", *chaosStories, time.Since(start).Round(time.Millisecond), max(1, *chaosWorkers))
	for _, inv := range chaosInvariants {
		if failed[inv] == 0 {
			continue
		}
		c := first[inv]
		if why, ok := chaosKnownOpen[inv]; ok {
			t.Logf("%s: broken in %d of %d stories, first config %s seed %d (sweep end %t); known open, not failed: %s",
				inv, failed[inv], *chaosStories, c.cfg.name, c.seed, c.sweepEnd, why)
			continue
		}
		if !*chaosShrink {
			t.Errorf("%s: broken in %d of %d stories; the first (config %s, seed %d, sweep end %t), not shrunk (-chaos.shrink=false)",
				inv, failed[inv], *chaosStories, c.cfg.name, c.seed, c.sweepEnd)
			continue
		}
		small, run, fs := c.shrink(ctx, filepath.Join(tmp, "shrink-"+inv), inv)
		text := minimalScenario(small, run, inv, fs)
		// Outside the test's temporary directory, which goes with the test: the failure names
		// it to replay with simulate.
		dir, err := os.MkdirTemp("", "pipeline-action-chaos-"+inv+"-")
		if err == nil {
			err = writeChaosDir(dir, small.cfg, text)
		}
		if err != nil {
			dir = fmt.Sprintf("(not written: %v)", err)
		}
		t.Errorf("%s: broken in %d of %d stories; the first (config %s, seed %d), shrunk to %d steps of its own (then the tail), is %s/scenario.yaml:\n%s\n%s%s",
			inv, failed[inv], *chaosStories, c.cfg.name, c.seed, len(small.steps), dir, text, details(fs, inv), logTail(run))
	}
}

// playChaosStories plays the stories of -chaos.stories, workers at once (each against its
// own fake), and returns how many broke each promise and the first (lowest seed) that did,
// whatever order they finished in.
func playChaosStories(ctx context.Context, tmp string, workers int) (map[string]int, map[string]chaosCase) {
	var mu sync.Mutex
	failed := map[string]int{}
	first := map[string]chaosCase{}
	playSeeds(*chaosSeed, *chaosStories, workers, func(seed uint64) {
		cfg := &chaosConfigs[seed%uint64(len(chaosConfigs))] // a seed names its story, config and all
		c := chaosCase{cfg: cfg, seed: seed, steps: generateStory(cfg, seed), sweepEnd: seed%3 == 0}
		_, fs := c.play(ctx, filepath.Join(tmp, fmt.Sprint(seed)))
		mu.Lock()
		defer mu.Unlock()
		for _, inv := range failedInvariants(fs) {
			failed[inv]++
			if f, ok := first[inv]; !ok || seed < f.seed {
				first[inv] = c
			}
		}
	})
	return failed, first
}

func details(fs []chaosFailure, inv string) string {
	return failureLines(fs, inv, func(f chaosFailure) (string, string) { return f.invariant, f.detail })
}

// playSeeds calls play with the n seeds from first, workers at once, and returns when
// all have played.
func playSeeds(first uint64, n, workers int, play func(seed uint64)) {
	next := make(chan uint64)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range next {
				play(seed)
			}
		}()
	}
	for i := range n {
		next <- first + uint64(i)
	}
	close(next)
	wg.Wait()
}

// failureLines lists the details of the failures of fs that broke promise, one a line;
// of says which promise a failure broke, and how.
func failureLines[F any](fs []F, promise string, of func(F) (broke, detail string)) string {
	var b strings.Builder
	for _, f := range fs {
		if broke, detail := of(f); broke == promise {
			fmt.Fprintf(&b, "  ✗ %s\n", detail)
		}
	}
	return b.String()
}

// logTail is the end of a story's simulate output, with -chaos.log.
func logTail(run *chaosRun) string {
	if !*chaosLog || run.log == nil {
		return ""
	}
	lines := strings.Split(run.log.String(), "\n")
	return "simulate's output:\n" + strings.Join(lines[max(0, len(lines)-*chaosLogLines):], "\n")
}
