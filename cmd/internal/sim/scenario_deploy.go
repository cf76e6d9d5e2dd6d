package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// deployStep is `deploy: {pr: 7, environment: staging, state: success}`: a deployment
// of the PR's head to the environment with a first status in state (default success),
// and its deployment_status.created event.
type deployStep struct {
	PR          int    `yaml:"pr"`
	Environment string `yaml:"environment"`
	State       string `yaml:"state"`
	Deliver     *bool  `yaml:"deliver"`
}

// deployStates are the states of a deployment status.
var deployStates = []string{"error", "failure", "inactive", "in_progress", "queued", "pending", "success"}

func (s *simulation) applyDeploy(v *deployStep) ([]ghfake.Event, string, bool, error) {
	state := cmp.Or(strings.ToLower(v.State), "success")
	if v.Environment == "" {
		return nil, "", false, fmt.Errorf("deploy needs an environment")
	}
	if !slices.Contains(deployStates, state) {
		return nil, "", false, fmt.Errorf("deploy: state %q is not one of %s", v.State, strings.Join(deployStates, ", "))
	}
	ev := s.fake.Deploy(s.sc.Repo, v.PR, v.Environment, state)
	return []ghfake.Event{ev}, fmt.Sprintf("deploy #%d to %s: %s", v.PR, v.Environment, state), deliverOn(v.Deliver), nil
}
