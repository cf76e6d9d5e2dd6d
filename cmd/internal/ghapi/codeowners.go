package ghapi

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine/model"
)

// codeOwnersObject is one place CODEOWNERS may be.
type codeOwnersObject *struct {
	Blob blobFields `graphql:"... on Blob"`
}

type codeOwnersQuery inRepo[struct {
	Github codeOwnersObject `graphql:"github: object(expression: $github)"`
	Root   codeOwnersObject `graphql:"root: object(expression: $root)"`
	Docs   codeOwnersObject `graphql:"docs: object(expression: $docs)"`
}]

// CodeOwners reads CODEOWNERS from branch (the default one: a pull request cannot choose its
// owners) where GitHub looks for it, in its order, in one GraphQL query: the first found is
// parsed (model.ParseCodeOwners); one with no Path when there is none.
// https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-code-owners
func (c *Client) CodeOwners(ctx context.Context, branch string) (*model.CodeOwners, error) {
	var q codeOwnersQuery
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo)}
	for i, key := range []string{"github", "root", "docs"} {
		vars[key] = githubv4.String(branch + ":" + model.CodeOwnersPaths[i])
	}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading CODEOWNERS on %s of %s/%s: %w", branch, c.Owner, c.Repo, err)
	}
	r := q.Repository
	for i, obj := range []codeOwnersObject{r.Github, r.Root, r.Docs} {
		if obj == nil || obj.Blob.Oid == "" {
			continue // absent, or a directory of that name
		}
		b := obj.Blob.blob()
		co := model.ParseCodeOwners(model.CodeOwnersPaths[i], b.Text)
		co.Truncated = b.Truncated
		return co, nil
	}
	return &model.CodeOwners{}, nil
}
