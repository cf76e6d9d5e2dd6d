package sim

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// sweepCron is the schedule the simulated sweep workflow runs on, for its payload.
const sweepCron = "*/15 * * * *"

// advanceSweep is the `advance: D` step: the clock moves on, and the sweep workflow
// runs (on schedule) as it would once GitHub starts it.
func (s *simulation) advanceSweep(d time.Duration) ([]ghfake.Event, string) {
	s.clock.advance(d)
	payload, _ := json.Marshal(map[string]any{
		"schedule": sweepCron,
		"repository": map[string]any{
			"full_name":      s.sc.Repo,
			"default_branch": s.sc.DefaultBranch,
		},
	})
	return []ghfake.Event{{Name: "schedule", Payload: payload}},
		fmt.Sprintf("advance %s to %s; the sweep runs", d, s.clock.now().Format(time.RFC3339))
}
