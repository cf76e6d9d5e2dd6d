package ghapi

import (
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine"
)

// deploymentNode is one deployment of the head commit, read with the facts: the
// `deployment` check compares the latest status of the latest one to an environment.
type deploymentNode struct {
	DatabaseId   int64
	Environment  string
	CreatedAt    githubv4.DateTime
	LatestStatus *struct{ State string }
}

// headDeployments returns the deployments of pr's head commit, their states in lower case
// as REST and webhooks spell them ("" for a deployment without a status yet).
func headDeployments(pr *prFields) engine.Deployments {
	var out engine.Deployments
	for _, n := range pr.Commits.Nodes {
		if n.Commit.Oid != pr.HeadRefOid || n.Commit.Deployments == nil {
			continue
		}
		for _, d := range n.Commit.Deployments.Nodes {
			dep := engine.Deployment{ID: d.DatabaseId, Environment: d.Environment, CreatedAt: d.CreatedAt.Time}
			if d.LatestStatus != nil {
				dep.State = strings.ToLower(d.LatestStatus.State)
			}
			out = append(out, dep)
		}
	}
	return out
}
