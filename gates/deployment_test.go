package gates

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
)

func deployments(ds ...model.Deployment) prOpt {
	return func(pr *model.PullRequest) { pr.Deployments = append(pr.Deployments, ds...) }
}

func TestDeployment(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []gateCase{
		{
			name:  "the latest deployment succeeded",
			facts: facts(deployments(model.Deployment{Environment: "staging", State: "failure", CreatedAt: t0}, model.Deployment{Environment: "staging", State: "success", CreatedAt: t0.Add(time.Minute)})),
			want:  model.GateResult{Status: model.GatePass, Message: "the head's latest deployment to staging is success"},
		},
		{
			name:  "the latest deployment failed",
			facts: facts(deployments(model.Deployment{Environment: "staging", State: "success", CreatedAt: t0}, model.Deployment{Environment: "staging", State: "failure", CreatedAt: t0.Add(time.Minute)})),
			want: model.GateResult{Status: model.GatePending, Message: "the head's latest deployment to staging is failure; needs success",
				Who: "the deployment to staging"},
		},
		{
			name:  "deployed elsewhere only",
			facts: facts(deployments(model.Deployment{Environment: "production", State: "success", CreatedAt: t0})),
			want:  model.GateResult{Status: model.GatePending, Message: "the head is not deployed to staging yet", Who: "the deployment to staging"},
		},
		{
			name:  "no status yet",
			facts: facts(deployments(model.Deployment{Environment: "staging", CreatedAt: t0})),
			want: model.GateResult{Status: model.GatePending, Message: "the head's latest deployment to staging has no status yet; needs success",
				Who: "the deployment to staging"},
		},
		{
			name:  "no pull request fails closed",
			facts: nil,
			want: model.GateResult{Status: model.GateError,
				Message: `there is no pull request to check; "deployment" works only on pull requests`},
		},
	}
	assertEvaluates(t, Deployment{}, "deployment", "{environment: staging}", tests)
}

func TestDeploymentParams(t *testing.T) {
	tests := []paramCase{
		{name: "missing", params: "{}", want: `t.yaml:1:1: missing required key "environment" for check "deployment" [gate]`},
		{name: "empty", params: `{environment: ""}`, want: `t.yaml:1:15: "environment" of check "deployment" must not be empty [gate]`},
		{name: "unknown state", params: `{environment: qa, state: done}`, want: `t.yaml:1:26: "state" of check "deployment" must be one of "success", "failure", "error", "inactive", "in_progress", "queued", "pending", not "done" [gate]`},
	}
	assertRefuses(t, Deployment{}, "deployment", true, tests)
}
