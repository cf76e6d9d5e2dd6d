package ghapi

// inRepo is the head the queries of the client's repository share: the repository
// $owner/$name, and in it what T selects. A query type built from it reads as
// q.Repository.Field, as a struct written out in full does.
type inRepo[T any] struct {
	Repository T `graphql:"repository(owner: $owner, name: $name)"`
}

// repoTag is inRepo's tag, for the queries built by reflection (an issue's facts, paths,
// multi-PR runs, the index, trails, sweeps), whose repository selects one field per pull request or path.
const repoTag = `graphql:"repository(owner: $owner, name: $name)"`
