package ghapi

// Query is one of the GraphQL queries the client sends, for a test that plays it against a
// server: Value is a new value of the type githubv4 builds the document from (a pointer), and
// Vars are the variables the client sets for it itself; the caller adds the repository's and
// the subject's.
type Query struct {
	Value any
	Vars  map[string]any
}

// Queries are the client's GraphQL queries by name: "facts" (a pull request's facts),
// "issue" (an issue's, with pull requests prs of its repository by alias), "index" (the index
// of open runs on state branch branch), "configByID", "commitPRs", "sweep" and "codeOwners". Each call
// returns new values.
func Queries(branch string, prs ...int) map[string]Query {
	index, issue := map[string]any{}, map[string]any{}
	return map[string]Query{
		"facts":      {Value: new(factsQuery), Vars: map[string]any{}},
		"issue":      {Value: issueQuery(prs, nil, issue).Interface(), Vars: issue},
		"index":      {Value: indexQuery(index, branch).Interface(), Vars: index},
		"configByID": {Value: new(configByIDQuery), Vars: map[string]any{}},
		"commitPRs":  {Value: new(commitPRsQuery), Vars: map[string]any{}},
		"sweep":      {Value: new(sweepQuery), Vars: map[string]any{}},
		"codeOwners": {Value: new(codeOwnersQuery), Vars: map[string]any{}},
	}
}
