package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A pipeline's display_name titles its runs in the status, with the pipeline's name beside
// it (what commands name); without one the name alone is the title.
func TestRenderDisplayName(t *testing.T) {
	cfg := testConfig()
	p := cfg.Pipeline(waitingRun().Pipeline)
	if !assert.NotNil(t, p) {
		return
	}
	plain := Render(cfg, state(waitingRun()))
	p.DisplayName = "Merge when green"
	got := Render(cfg, state(waitingRun()))
	assert.NotContains(t, plain, "Merge when green")
	assert.Contains(t, got, "**Merge when green** `"+p.Name+"` · ")
}
