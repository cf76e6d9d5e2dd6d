package gates

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// Deployment is the `deployment` check: the head commit's latest deployment to
// `environment` has the state `state` (success by default), as its latest deployment
// status says. GitHub sends `deployment_status` when a status is added, which makes the
// gate look again.
type Deployment struct{}

var _ engine.Gate = Deployment{}

const deploymentName = "deployment"

// deploymentStates are the states of a deployment status, as GitHub's REST API and
// webhooks spell them.
var deploymentStates = []string{"success", "failure", "error", "inactive", "in_progress", "queued", "pending"}

// Compile reads `environment`, a non-empty string, which is required, and `state`. It
// takes no `pr`: the deployments read are those of the subject's own head.
func (Deployment) Compile(p *lang.Params) (engine.Check, error) {
	if !p.Has("environment") {
		p.Errorf("environment", "missing required key %q for check %q", "environment", deploymentName)
		p.Enum("state", "success", deploymentStates...)
		return nil, nil
	}
	before := len(p.Errors())
	env := p.String("environment", "")
	state := p.Enum("state", "success", deploymentStates...)
	if len(p.Errors()) > before {
		return nil, nil
	}
	if env == "" {
		p.Errorf("environment", "%q of check %q must not be empty", "environment", deploymentName)
		return nil, nil
	}
	return deployment{environment: env, state: state}, nil
}

type deployment struct {
	environment, state string
}

var _ engine.Check = deployment{}

// Evaluate waits until the head's latest deployment to the environment has the state.
func (c deployment) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(deploymentName) // fail closed
	}
	d, ok := f.PR.Deployments.Latest(c.environment)
	res := model.GateResult{Check: deploymentName, Status: model.GatePending, Who: "the deployment to " + c.environment}
	switch {
	case !ok:
		res.Message = fmt.Sprintf("the head is not deployed to %s yet", c.environment)
	case d.State == c.state:
		res.Status, res.Who = model.GatePass, ""
		res.Message = fmt.Sprintf("the head's latest deployment to %s is %s", c.environment, c.state)
	case d.State == "":
		res.Message = fmt.Sprintf("the head's latest deployment to %s has no status yet; needs %s", c.environment, c.state)
	default:
		res.Message = fmt.Sprintf("the head's latest deployment to %s is %s; needs %s", c.environment, d.State, c.state)
	}
	return res
}
