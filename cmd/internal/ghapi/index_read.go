package ghapi

import (
	"context"
	"fmt"
	"reflect"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

// The whole index of open runs is read in one query, at the state branch's head: IndexFile
// (an older action's) and every shard (state.ShardFiles), each under its own alias with
// the commit that last changed it, so that each is trusted on its own:
//
//	stateRef: ref(qualifiedName: $stateRef) { target { oid ... on Commit {
//	  stateIndex: file(path: $stateIndex) { … }  stateIndexLog: history(first: 1, path: $stateIndex) { … }
//	  shard0: file(path: $shard0) { … }          shard0Log: history(first: 1, path: $shard0) { … }
//	  …
//	} } }

// indexFields are the fields of the Commit fragment reading the whole index, with their
// variables set in vars.
func indexFields(vars map[string]any) []reflect.StructField {
	var fields []reflect.StructField
	add := func(name, alias, path string) {
		fields = append(fields,
			reflect.StructField{Name: name, Type: reflect.TypeOf((*stateFile)(nil)),
				Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: file(path: $%s)"`, alias, alias))},
			reflect.StructField{Name: name + "Log", Type: reflect.TypeOf(struct{ Nodes []stateCommit }{}),
				Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%sLog: history(first: 1, path: $%s)"`, alias, alias))})
		vars[alias] = githubv4.String(path)
	}
	add("Index", "stateIndex", state.IndexFile)
	add("Sweeps", "stateSweeps", state.SweepLogFile)
	add("Retry", "stateRetry", state.RetryFile)
	for i, p := range state.ShardFiles() {
		add(fmt.Sprintf("Shard%d", i), fmt.Sprintf("shard%d", i), p)
	}
	return fields
}

// indexRefField is the repository's field `stateRef: ref(qualifiedName: $stateRef)`
// reading the whole index of branch, with its variables set in vars.
func indexRefField(vars map[string]any, branch string) reflect.StructField {
	vars["stateRef"] = githubv4.String("refs/heads/" + branch)
	commit := reflect.StructOf(indexFields(vars))
	target := reflect.StructOf([]reflect.StructField{
		{Name: "Oid", Type: reflect.TypeOf("")},
		{Name: "Commit", Type: commit, Tag: `graphql:"... on Commit"`},
	})
	ref := reflect.StructOf([]reflect.StructField{{Name: "Target", Type: reflect.PointerTo(target)}})
	return reflect.StructField{Name: "StateRef", Type: reflect.PointerTo(ref), Tag: `graphql:"stateRef: ref(qualifiedName: $stateRef)"`}
}

// indexQuery is a new query value reading the whole index of branch, with its variables
// set in vars.
func indexQuery(vars map[string]any, branch string) reflect.Value {
	repo := reflect.StructOf([]reflect.StructField{indexRefField(vars, branch)})
	return reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Repository", Type: repo, Tag: repoTag}}))
}

// indexRead turns the value of indexRefField into a state.BranchRead with Index and Shards.
func indexRead(branch string, ref reflect.Value) state.BranchRead {
	r := state.BranchRead{Name: branch}
	if ref.IsNil() || ref.Elem().FieldByName("Target").IsNil() {
		return r
	}
	target := ref.Elem().FieldByName("Target").Elem()
	r.Exists, r.Head = true, target.FieldByName("Oid").String()
	commit := target.FieldByName("Commit")
	file := func(name, path string) *state.BranchFile {
		f, _ := commit.FieldByName(name).Interface().(*stateFile)
		log, _ := commit.FieldByName(name + "Log").Interface().(struct{ Nodes []stateCommit })
		return branchFile(path, f, log.Nodes)
	}
	r.Index = file("Index", state.IndexFile)
	r.Sweeps = file("Sweeps", state.SweepLogFile)
	r.Retry = file("Retry", state.RetryFile)
	for i, p := range state.ShardFiles() {
		if f := file(fmt.Sprintf("Shard%d", i), p); f != nil {
			r.Shards = append(r.Shards, f)
		}
	}
	return r
}

// OpenRuns reads the whole index at the head of the state branch (IndexFile and every
// shard, each with the commit that last changed it) in one GraphQL query. The
// BranchRead's Exists is false when there is no such branch; Index is nil and Shards
// empty when the branch has no index.
func (c *Client) OpenRuns(ctx context.Context, branch string) (state.BranchRead, error) {
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo)}
	q := indexQuery(vars, branch)
	if err := c.gql.Query(ctx, q.Interface(), vars); err != nil {
		return state.BranchRead{}, fmt.Errorf("reading the index of open runs on %s/%s: %w", c.Owner, c.Repo, err)
	}
	return indexRead(branch, q.Elem().Field(0).Field(0)), nil
}
