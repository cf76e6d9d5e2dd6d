package graphql

import (
	"fmt"
	"maps"
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
)

// resolverSets register the GraphQL fields the fake serves, one set per group of types,
// in the order they run. A field belongs to one set: on panics when a set defines a
// field another one has defined, so no set silently replaces another's answer.
var resolverSets = []func(){
	queryResolvers,      // Query, RateLimit, actors
	repositoryResolvers, // Repository, Ref, Blob
	mutationResolvers,
	gitObjectResolvers, // Commit authorship and signatures
	historyResolvers,   // Commit.history, file, parents
	commitResolvers,    // Commit, status rollup
	checkResolvers,     // check runs and suites, statuses
	treeResolvers,
	pullRequestResolvers, // Issue and PullRequest, commits, files
	reviewResolvers,      // PullRequestReview
	commentResolvers,     // IssueComment, Label
	timelineResolvers,    // Issue and PullRequest.timelineItems and their events
	closingResolvers,
	forkResolvers,
	deployResolvers,       // Commit.deployments, Deployment, DeploymentStatus
	queueResolvers,        // the merge queue
	updateBranchResolvers, // bringing a branch up to date
}

func init() {
	for _, register := range resolverSets {
		register()
	}
}

// on registers resolvers for one type: on("Repository", map[string]resolver{...}).
func on(typ string, fields map[string]resolver) {
	for name, r := range fields {
		key := typ + "." + name
		if resolvers[key] != nil {
			panic(fmt.Sprintf("ghfake: GraphQL field %s is defined twice", key))
		}
		resolvers[key] = r
	}
}

// Resolves reports whether the fake resolves field typ.field itself (connection, edge and
// PageInfo fields are gqlexec's).
func Resolves(typ, field string) bool { return resolvers[typ+"."+field] != nil }

// Fields are the fields the fake resolves, as "Type.field", sorted.
func Fields() []string { return slices.Sorted(maps.Keys(resolvers)) }

// Mutate runs mutation name with input as login's, over schema sch, and returns its payload.
// The caller holds Mu.
func (s *Env) Mutate(sch *ast.Schema, login, name string, input map[string]any) (any, error) {
	e := newExecutor(s, sch, login, nil, nil)
	return resolvers["Mutation."+name](e, rootValue{}, map[string]any{"input": input})
}
