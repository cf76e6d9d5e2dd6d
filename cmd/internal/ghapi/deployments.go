package ghapi

import (
	"context"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/shurcooL/githubv4"
)

// deploymentNode is one deployment of a commit: the `deployment` check compares the
// latest status of the latest one to an environment. It reads no id: a deployment's
// databaseId is a 32-bit Int (there is no fullDatabaseId), and once deployment ids pass
// 2^31 GitHub answers an error for the whole query. The order of the connection, by
// creation time, tells two deployments of the same second apart.
type deploymentNode struct {
	Environment  string
	CreatedAt    githubv4.DateTime
	LatestStatus *struct{ State string }
}

// deploymentsQuery reads the latest deployments of a commit. Reading them needs the
// `deployments: read` permission, so only configs with a deployment check send it.
type deploymentsQuery struct {
	Repository struct {
		Object *struct {
			Commit struct {
				Deployments *struct{ Nodes []deploymentNode } `graphql:"deployments(last: 50, orderBy: {field: CREATED_AT, direction: ASC})"`
			} `graphql:"... on Commit"`
		} `graphql:"object(expression: $sha)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// Deployments returns the latest deployments of commit sha (at most 50), oldest first,
// their states in lower case as REST and webhooks spell them ("" for one without a status yet).
// https://docs.github.com/en/graphql/reference/objects#commit (deployments)
func (c *Client) Deployments(ctx context.Context, sha string) (model.Deployments, error) {
	var q deploymentsQuery
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo), "sha": githubv4.String(sha)}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading the deployments of %s in %s/%s: %w", sha, c.Owner, c.Repo, err)
	}
	out := model.Deployments{}
	if q.Repository.Object == nil || q.Repository.Object.Commit.Deployments == nil {
		return out, nil
	}
	for _, d := range q.Repository.Object.Commit.Deployments.Nodes {
		dep := model.Deployment{Environment: d.Environment, CreatedAt: d.CreatedAt.Time}
		if d.LatestStatus != nil {
			dep.State = strings.ToLower(d.LatestStatus.State)
		}
		out = append(out, dep)
	}
	return out, nil
}
