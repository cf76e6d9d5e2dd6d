package cli

import (
	"context"
	"os"
	"strconv"
	"testing"
)

func TestChaosDebug(t *testing.T) {
	seed, _ := strconv.ParseUint(os.Getenv("CHAOS_SEED"), 10, 64)
	cfg := &chaosConfigs[int(seed-1)%len(chaosConfigs)]
	c := chaosCase{cfg: cfg, seed: seed, steps: generateStory(cfg, seed)}
	run, fs := c.play(context.Background(), t.TempDir())
	t.Log(renderStory(cfg, "debug", run.steps, ""))
	t.Log(run.log.String())
	t.Log(fs)
	for _, d := range run.fake.Dispatches() {
		t.Log(d.Inputs)
	}
	for i, s := range run.snaps {
		t.Log(i, s)
	}
}
