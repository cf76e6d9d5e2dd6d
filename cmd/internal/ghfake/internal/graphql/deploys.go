package graphql

import (
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// deployResolvers serve a commit's deployments and their statuses.
func deployResolvers() {
	on("Commit", map[string]resolver{
		"deployments": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*world.Commit)
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
