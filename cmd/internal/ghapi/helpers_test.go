package ghapi_test

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// clock is the fake's time in the tests that read timestamps back.
var clock = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// setupAtClock is setup with the fake's time stopped at clock, so that what it stamps can be
// compared with what the client reads back.
func setupAtClock(t *testing.T) (*ghfake.Server, *ghapi.Client) {
	t.Helper()
	fake, c := setup(t)
	fake.SetClock(func() time.Time { return clock })
	return fake, c
}

// The configs of tests that need a pipelines file on main but none of its pipelines.
const (
	noPipelines = "version: 1\npipelines: {}\n"
	versionOnly = "version: 1\n"
)

// setupWithConfig is setup with config as the pipelines file on main.
func setupWithConfig(t *testing.T, config string) (*ghfake.Server, *ghapi.Client) {
	t.Helper()
	fake, c := setup(t)
	fake.SetFile(repoName, "main", configPath, config)
	return fake, c
}

// setupAtClockWithConfig is setupAtClock with config as the pipelines file on main.
func setupAtClockWithConfig(t *testing.T, config string) (*ghfake.Server, *ghapi.Client) {
	t.Helper()
	fake, c := setupAtClock(t)
	fake.SetFile(repoName, "main", configPath, config)
	return fake, c
}
