package ghapi

import (
	"context"
	"fmt"
	"reflect"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

// SweepSnapshot is what a sweep reads before it advances anything: the config (for the
// state branch it names), the action's identity (whose commits of the index are
// trusted) and the whole index at the head of the state branch (OpenRuns).
type SweepSnapshot struct {
	Viewer string
	// ActionsToken: the viewer is a workflow's GITHUB_TOKEN, whose pushes start no workflow.
	ActionsToken  bool
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
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// withIndex returns the type of sweepQuery with the repository's field reading the whole
// index (indexRefField) added to it.
func withIndex(index reflect.StructField) reflect.Type {
	t := reflect.TypeOf(sweepQuery{})
	fields := make([]reflect.StructField, t.NumField())
	for i := range fields {
		fields[i] = t.Field(i)
		if fields[i].Name == "Repository" {
			repo := fields[i].Type
			sub := make([]reflect.StructField, repo.NumField(), repo.NumField()+1)
			for j := range sub {
				sub[j] = repo.Field(j)
			}
			fields[i].Type = reflect.StructOf(append(sub, index))
		}
	}
	return reflect.StructOf(fields)
}

// sweepRead is what the query of withIndex read: sweepQuery's fields, and the index.
func sweepRead(v reflect.Value, branch string) (sweepQuery, state.BranchRead) {
	var q sweepQuery
	static := reflect.ValueOf(&q).Elem()
	for i := 0; i < static.NumField(); i++ {
		f, got := static.Field(i), v.Field(i)
		if f.Kind() != reflect.Struct || f.Type() == got.Type() {
			f.Set(got)
			continue
		}
		for j := 0; j < f.NumField(); j++ {
			f.Field(j).Set(got.Field(j))
		}
	}
	return q, indexRead(branch, v.FieldByName("Repository").FieldByName("StateRef"))
}

// SweepState reads, in one GraphQL query, the config at defaultBranch:configPath (with
// the *.yaml files of its directory), the viewer, and the whole index at the head of the
// state branch stateBranch, each file with the commit that last changed it (OpenRuns).
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
	}
	v := reflect.New(withIndex(indexRefField(vars, stateBranch)))
	if err := c.gql.Query(ctx, v.Interface(), vars); err != nil {
		return nil, fmt.Errorf("reading the config and the index of open runs on %s/%s: %w", c.Owner, c.Repo, err)
	}
	q, read := sweepRead(v.Elem(), stateBranch)
	s := &SweepSnapshot{Viewer: login(&q.Viewer), DefaultBranch: defaultBranch, State: read}
	s.ActionsToken = c.actionsToken(s.Viewer)
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
	return s, nil
}
