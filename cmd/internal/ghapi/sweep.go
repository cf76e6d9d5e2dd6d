package ghapi

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

// SweepSnapshot is what a sweep reads before it advances anything: the config (for the
// state branch it names), the action's identity (whose commits of the index are
// trusted) and index.json at the head of the state branch.
type SweepSnapshot struct {
	Viewer        string
	DefaultBranch string
	Config        *Config // nil when there is none
	State         state.BranchRead
}

type sweepQuery struct {
	Viewer     actor
	Repository struct {
		DefaultBranchRef *struct{ Name string }
		Config           *struct {
			Blob blobFields `graphql:"... on Blob"`
		} `graphql:"config: object(expression: $configExpr)"`
		ConfigDir *struct {
			Tree treeFields `graphql:"... on Tree"`
		} `graphql:"configDir: object(expression: $configDirExpr)"`
		StateRef *struct {
			Target *struct {
				Oid    string
				Commit struct {
					Index    *stateFile                    `graphql:"stateIndex: file(path: $stateIndex)"`
					IndexLog struct{ Nodes []stateCommit } `graphql:"stateIndexLog: history(first: 1, path: $stateIndex)"`
				} `graphql:"... on Commit"`
			}
		} `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// SweepState reads, in one GraphQL query, the config at defaultBranch:configPath (with
// the *.yaml files of its directory), the viewer, and index.json at the head of the
// state branch stateBranch with the commit that last changed it.
func (c *Client) SweepState(ctx context.Context, defaultBranch, configPath, stateBranch string) (*SweepSnapshot, error) {
	if defaultBranch == "" {
		return nil, fmt.Errorf("reading %s/%s for a sweep: the default branch is unknown", c.Owner, c.Repo)
	}
	dirExpr := defaultBranch + ":" + ConfigDir(configPath)
	if ConfigDir(configPath) == "" {
		dirExpr = defaultBranch + ":" + configPath
	}
	vars := map[string]any{
		"owner":         githubv4.String(c.Owner),
		"name":          githubv4.String(c.Repo),
		"configExpr":    githubv4.String(defaultBranch + ":" + configPath),
		"configDirExpr": githubv4.String(dirExpr),
		"stateRef":      githubv4.String("refs/heads/" + stateBranch),
		"stateIndex":    githubv4.String(state.IndexFile),
	}
	var q sweepQuery
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading %s on %s/%s: %w", state.IndexFile, c.Owner, c.Repo, err)
	}
	s := &SweepSnapshot{Viewer: login(&q.Viewer), DefaultBranch: defaultBranch, State: state.BranchRead{Name: stateBranch}}
	if q.Repository.DefaultBranchRef != nil {
		s.DefaultBranch = q.Repository.DefaultBranchRef.Name
	}
	var file *blobFields
	if q.Repository.Config != nil {
		file = &q.Repository.Config.Blob
	}
	var dir *treeFields
	if q.Repository.ConfigDir != nil {
		dir = &q.Repository.ConfigDir.Tree
	}
	cfg, err := newConfig(configPath, file, dir)
	if err != nil {
		return nil, fmt.Errorf("reading the config on %s: %w", s.DefaultBranch, err)
	}
	s.Config = cfg
	if ref := q.Repository.StateRef; ref != nil && ref.Target != nil {
		s.State.Exists, s.State.Head = true, ref.Target.Oid
		s.State.Index = branchFile(state.IndexFile, ref.Target.Commit.Index, ref.Target.Commit.IndexLog.Nodes)
	}
	return s, nil
}
