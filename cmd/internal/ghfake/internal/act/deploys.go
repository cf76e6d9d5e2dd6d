package act

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// deployStates are the states of a deployment status, as REST and webhooks spell them.
var deployStates = []string{"error", "failure", "inactive", "in_progress", "queued", "pending", "success"}

// Deploy creates a deployment of the pull request's head to environment, by its author,
// with a first status in state, and returns the deployment_status event GitHub sends.
func (s *CI) Deploy(repoName string, number int, environment, state string) shapes.Event {
	st := strings.ToLower(state)
	if !slices.Contains(deployStates, st) {
		panic(fmt.Sprintf("ghfake: deployment state %q is not one of %s", state, strings.Join(deployStates, ", ")))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	c := r.Commits[pr.HeadSHA]
	d, ds := s.AddDeploy(c, environment, pr.Author, st)
	fn := r.FullName()
	dURL := s.APIURL("/repos/%s/deployments/%d", fn, d.ID)
	dep := shapes.Obj{
		"url": dURL, "id": d.ID, "node_id": world.NodeID("Deployment", d.ID), "sha": c.SHA, "ref": pr.Head,
		"task": "deploy", "payload": shapes.Obj{}, "original_environment": environment, "environment": environment,
		"description": nil, "creator": s.UserJSON(d.Creator), "created_at": shapes.TS(d.CreatedAt), "updated_at": shapes.TS(ds.CreatedAt),
		"statuses_url": dURL + "/statuses", "repository_url": s.APIURL("/repos/%s", fn), "performed_via_github_app": nil,
	}
	status := shapes.Obj{
		"url": fmt.Sprintf("%s/statuses/%d", dURL, ds.ID), "id": ds.ID, "node_id": world.NodeID("DeploymentStatus", ds.ID),
		"state": ds.State, "creator": s.UserJSON(d.Creator), "description": "", "environment": environment,
		"target_url": "", "created_at": shapes.TS(ds.CreatedAt), "updated_at": shapes.TS(ds.CreatedAt),
		"deployment_url": dURL, "repository_url": s.APIURL("/repos/%s", fn),
	}
	return s.EventOf(r, "deployment_status", "created", d.Creator, shapes.Obj{"action": "created", "deployment": dep, "deployment_status": status})
}
