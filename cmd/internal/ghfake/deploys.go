package ghfake

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
func (s *Server) Deploy(repoName string, number int, environment, state string) Event {
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
	dep := obj{
		"url": dURL, "id": d.ID, "node_id": world.NodeID("Deployment", d.ID), "sha": c.SHA, "ref": pr.Head,
		"task": "deploy", "payload": obj{}, "original_environment": environment, "environment": environment,
		"description": nil, "creator": s.UserJSON(d.Creator), "created_at": shapes.TS(d.CreatedAt), "updated_at": shapes.TS(ds.CreatedAt),
		"statuses_url": dURL + "/statuses", "repository_url": s.APIURL("/repos/%s", fn), "performed_via_github_app": nil,
	}
	status := obj{
		"url": fmt.Sprintf("%s/statuses/%d", dURL, ds.ID), "id": ds.ID, "node_id": world.NodeID("DeploymentStatus", ds.ID),
		"state": ds.State, "creator": s.UserJSON(d.Creator), "description": "", "environment": environment,
		"target_url": "", "created_at": shapes.TS(ds.CreatedAt), "updated_at": shapes.TS(ds.CreatedAt),
		"deployment_url": dURL, "repository_url": s.APIURL("/repos/%s", fn),
	}
	return s.EventOf(r, "deployment_status", "created", d.Creator, obj{"action": "created", "deployment": dep, "deployment_status": status})
}

// deployResolvers serve a commit's deployments and their statuses.
func deployResolvers() {
	on("Commit", map[string]resolver{
		"deployments": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*commit)
			envs, _ := a["environments"].([]any)
			var items []any
			for _, d := range c.Deploys {
				if len(envs) == 0 || slices.Contains(envs, any(d.Environment)) {
					items = append(items, d)
				}
			}
			return paginate("deployments", items, a)
		},
	})
	on("Deployment", map[string]resolver{
		"id":          value(func(d *world.Deploy) any { return world.NodeID("Deployment", d.ID) }),
		"databaseId":  value(func(d *world.Deploy) any { return d.ID }),
		"environment": value(func(d *world.Deploy) any { return d.Environment }),
		"createdAt":   value(func(d *world.Deploy) any { return gqlTime(d.CreatedAt) }),
		"state": value(func(d *world.Deploy) any {
			if l := d.Latest(); l != nil {
				return strings.ToUpper(l.State)
			}
			return "PENDING"
		}),
		"latestStatus": value(func(d *world.Deploy) any {
			if l := d.Latest(); l != nil {
				return l
			}
			return nil
		}),
	})
	on("DeploymentStatus", map[string]resolver{
		"id":        value(func(st *world.DeployStatus) any { return world.NodeID("DeploymentStatus", st.ID) }),
		"state":     value(func(st *world.DeployStatus) any { return strings.ToUpper(st.State) }),
		"createdAt": value(func(st *world.DeployStatus) any { return gqlTime(st.CreatedAt) }),
	})
}
