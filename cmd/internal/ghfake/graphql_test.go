package ghfake

import (
	"strconv"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// factsQuery is shaped like the adapter's facts query: anonymous, with variables, aliases and
// fragments on unions.
const factsQuery = `query($owner: String!, $name: String!, $number: Int!, $config: String!) {
  viewer { login }
  rateLimit { cost remaining }
  repository(owner: $owner, name: $name) {
    nameWithOwner
    owner { login }
    defaultBranchRef { name }
    config: object(expression: $config) { ... on Blob { oid text isTruncated byteSize } }
    missing: object(expression: "main:nope.yaml") { __typename }
    pullRequest(number: $number) {
      ...prFields
    }
  }
}
fragment prFields on PullRequest {
  id number title state isDraft merged mergeable headRefOid baseRefName headRefName
  author { login __typename }
  labels(first: 10) { nodes { name } totalCount }
  reviews(last: 20) { nodes { author { login } state submittedAt commit { oid } authorCanPushToRepository } }
  commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(first: 50) {
    nodes { __typename ... on CheckRun { name status conclusion } ... on StatusContext { context state } }
    pageInfo { hasNextPage endCursor } } } } } }
  comments(last: 10) { nodes { fullDatabaseId author { login } body viewerDidAuthor createdAt } }
}`

func factsVars() map[string]any {
	return map[string]any{"owner": "acme", "name": "widgets", "number": 7, "config": "main:.github/pipelines.yaml"}
}

func TestGraphQLFacts(t *testing.T) {
	s := widgets(t)
	s.Review(testRepo, 7, "alice", "approved", "")
	s.Review(testRepo, 7, "mallory", "approved", "")
	s.CompleteCheck(testRepo, 7, "test", "success", "")
	s.SetStatus(testRepo, 7, "ci/lint", "pending")
	bot := s.BotToken()
	_, _, err := client(t, s, bot).Issues.CreateComment(t.Context(), "acme", "widgets", 7, nil)
	require.Error(t, err, "a comment needs a body")
	s.Comment(testRepo, 7, "alice", "/pipeline status")
	c := client(t, s, bot)
	body := "state"
	_, _, err = c.Issues.CreateComment(t.Context(), "acme", "widgets", 7, ghComment(body))
	require.NoError(t, err)

	out := gql(t, s, bot, factsQuery, factsVars())
	require.Nil(t, out["errors"])
	data := out["data"]
	assert.Equal(t, "github-actions[bot]", dig(t, data, "viewer", "login"), "the viewer (a User) keeps [bot], as with an installation token")
	assert.EqualValues(t, 1, dig(t, data, "rateLimit", "cost"))
	repo := dig(t, data, "repository")
	assert.Equal(t, "acme/widgets", dig(t, repo, "nameWithOwner"))
	assert.Equal(t, "main", dig(t, repo, "defaultBranchRef", "name"))
	assert.Equal(t, "version: 1\n", dig(t, repo, "config", "text"))
	assert.Equal(t, world.BlobOID("version: 1\n"), dig(t, repo, "config", "oid"))
	assert.Nil(t, dig(t, repo, "missing"))

	pr := dig(t, repo, "pullRequest")
	assert.Equal(t, "OPEN", dig(t, pr, "state"))
	assert.Equal(t, "MERGEABLE", dig(t, pr, "mergeable"))
	assert.Equal(t, "User", dig(t, pr, "author", "__typename"))
	assert.Equal(t, s.PR(testRepo, 7).HeadSHA, dig(t, pr, "headRefOid"))
	assert.Equal(t, "security", dig(t, pr, "labels", "nodes", 0, "name"))

	reviews := dig(t, pr, "reviews", "nodes").([]any)
	require.Len(t, reviews, 2)
	assert.Equal(t, true, dig(t, reviews[0], "authorCanPushToRepository"), "alice can write")
	assert.Equal(t, false, dig(t, reviews[1], "authorCanPushToRepository"), "mallory can only read")
	assert.Equal(t, "APPROVED", dig(t, reviews[0], "state"))

	rollup := dig(t, pr, "commits", "nodes", 0, "commit", "statusCheckRollup")
	assert.Equal(t, "PENDING", dig(t, rollup, "state"), "the worst context wins")
	ctxs := dig(t, rollup, "contexts", "nodes").([]any)
	require.Len(t, ctxs, 2)
	assert.Equal(t, map[string]any{"__typename": "CheckRun", "name": "test", "status": "COMPLETED", "conclusion": "SUCCESS"}, ctxs[0])
	assert.Equal(t, map[string]any{"__typename": "StatusContext", "context": "ci/lint", "state": "PENDING"}, ctxs[1])

	comments := dig(t, pr, "comments", "nodes").([]any)
	require.Len(t, comments, 2)
	assert.Equal(t, false, dig(t, comments[0], "viewerDidAuthor"))
	assert.Equal(t, true, dig(t, comments[1], "viewerDidAuthor"), "the bot wrote it")
	assert.Equal(t, "github-actions", dig(t, comments[1], "author", "login"), "a Bot's GraphQL login has no [bot]")

	out = gql(t, s, s.Token("alice"), factsQuery, factsVars())
	comments = dig(t, out, "data", "repository", "pullRequest", "comments", "nodes").([]any)
	assert.Equal(t, true, dig(t, comments[0], "viewerDidAuthor"), "alice wrote the first")
}

// Ids of comments, reviews and check runs are above 2^32, as on github.com: fullDatabaseId
// (a BigInt) is a decimal string, and the 32-bit databaseId is refused as GitHub refuses it.
func TestGraphQLBigIDs(t *testing.T) {
	s := widgets(t)
	_, id := s.Comment(testRepo, 7, "alice", "hi")
	require.Greater(t, id, int64(1)<<32)
	s.Review(testRepo, 7, "alice", "approved", "")
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
	  comments(first: 1) { nodes { fullDatabaseId body } }
	  reviews(first: 1) { nodes { fullDatabaseId } } } } }`, nil)
	require.Nil(t, out["errors"])
	pr := dig(t, out, "data", "repository", "pullRequest")
	assert.Equal(t, strconv.FormatInt(id, 10), dig(t, pr, "comments", "nodes", 0, "fullDatabaseId"))
	assert.Equal(t, strconv.FormatInt(id+1, 10), dig(t, pr, "reviews", "nodes", 0, "fullDatabaseId"))

	out = gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
	  number comments(first: 1) { nodes { databaseId body } } } } }`, nil)
	assert.Contains(t, dig(t, out, "errors", 0, "message"), "Integer out of bounds: "+strconv.FormatInt(id, 10))
	assert.Equal(t, []any{"repository", "pullRequest", "comments", "nodes", float64(0), "databaseId"}, dig(t, out, "errors", 0, "path"))
	node := dig(t, out, "data", "repository", "pullRequest", "comments", "nodes", 0)
	assert.Nil(t, dig(t, node, "databaseId"), "null, never a truncated id")
	assert.Equal(t, "hi", dig(t, node, "body"))
	assert.Empty(t, expectUnexpected(s), "GitHub's behaviour, not a gap of the fake")
}

func TestGraphQLRefusals(t *testing.T) {
	tests := []struct {
		name, query string
		vars        map[string]any
		want        string
		unexpected  bool
	}{
		{"unknown field", `{ viewer { loginn } }`, nil, `Cannot query field "loginn" on type "User". Did you mean "login"?`, true},
		{"missing variable", `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { number } } }`, nil, "must be defined", true},
		{"unimplemented field", `{ viewer { bio } }`, nil, "ghfake does not implement field User.bio", true},
		{"connection without first", `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { labels { totalCount } } } }`, nil, "You must provide a `first` or `last` value", false},
		{"unknown repository", `{ repository(owner: "acme", name: "nope") { name } }`, nil, "Could not resolve to a Repository", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := widgets(t)
			out := gql(t, s, s.BotToken(), tt.query, tt.vars)
			errs, ok := out["errors"].([]any)
			require.True(t, ok, "an error entry: %v", out)
			assert.Contains(t, dig(t, errs[0], "message"), tt.want)
			if tt.unexpected {
				assert.NotEmpty(t, expectUnexpected(s))
			} else {
				assert.Empty(t, expectUnexpected(s))
			}
		})
	}
}

func TestGraphQLObjectOnDefaultBranchOnly(t *testing.T) {
	s := widgets(t)
	s.SetFile(testRepo, "feat/login", ".github/pipelines.yaml", "version: 1\n# rewritten by the PR\n")
	s.SetFile(testRepo, "feat/login", "only-on-pr.txt", "x")
	q := `query($e: String!) { repository(owner: "acme", name: "widgets") { object(expression: $e) { ... on Blob { text } } } }`
	for expr, want := range map[string]any{
		"main:.github/pipelines.yaml":       "version: 1\n",
		"main:only-on-pr.txt":               nil,
		"feat/login:.github/pipelines.yaml": "version: 1\n# rewritten by the PR\n",
		"nobranch:.github/pipelines.yaml":   nil,
	} {
		t.Run(expr, func(t *testing.T) {
			out := gql(t, s, s.BotToken(), q, map[string]any{"e": expr})
			obj := dig(t, out, "data", "repository", "object")
			if want == nil {
				assert.Nil(t, obj)
				return
			}
			assert.Equal(t, want, dig(t, obj, "text"))
		})
	}
}

func TestGraphQLAliasesEdgesAndPaging(t *testing.T) {
	s := widgets(t)
	for _, l := range []string{"a", "b", "c"} {
		s.Label(testRepo, 7, l, true)
	}
	q := `query { r: repository(owner: "acme", name: "widgets") { p: pullRequest(number: 7) {
	  firstTwo: labels(first: 2) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } }
	  lastOne: labels(last: 1) { nodes { name } totalCount }
	  ... on PullRequest { number }
	  ... on Node { __typename }
	} } }`
	out := gql(t, s, s.BotToken(), q, nil)
	require.Nil(t, out["errors"])
	p := dig(t, out, "data", "r", "p")
	assert.Equal(t, "security", dig(t, p, "firstTwo", "edges", 0, "node", "name"))
	assert.Equal(t, true, dig(t, p, "firstTwo", "pageInfo", "hasNextPage"))
	assert.Equal(t, "c", dig(t, p, "lastOne", "nodes", 0, "name"))
	assert.EqualValues(t, 4, dig(t, p, "lastOne", "totalCount"))
	assert.EqualValues(t, 7, dig(t, p, "number"))
	assert.Equal(t, "PullRequest", dig(t, p, "__typename"))

	after := dig(t, p, "firstTwo", "pageInfo", "endCursor")
	out = gql(t, s, s.BotToken(), `query($after: String) { repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
	  labels(first: 10, after: $after) { nodes { name } pageInfo { hasNextPage } } } } }`, map[string]any{"after": after})
	nodes := dig(t, out, "data", "repository", "pullRequest", "labels", "nodes").([]any)
	require.Len(t, nodes, 2)
	assert.Equal(t, "b", dig(t, nodes[0], "name"))
}

func TestGraphQLAssociatedPullRequests(t *testing.T) {
	s := widgets(t)
	head := s.PR(testRepo, 7).HeadSHA
	q := `query($oid: GitObjectID!) { repository(owner: "acme", name: "widgets") {
	  object(oid: $oid) { __typename ... on Commit { oid associatedPullRequests(first: 5) { nodes { number state headRefOid } } } } } }`
	out := gql(t, s, s.BotToken(), q, map[string]any{"oid": head})
	require.Nil(t, out["errors"])
	obj := dig(t, out, "data", "repository", "object")
	assert.Equal(t, "Commit", dig(t, obj, "__typename"))
	assert.EqualValues(t, 7, dig(t, obj, "associatedPullRequests", "nodes", 0, "number"))
	assert.Equal(t, head, dig(t, obj, "associatedPullRequests", "nodes", 0, "headRefOid"))
}

func TestGraphQLRollupStates(t *testing.T) {
	tests := []struct {
		name  string
		apply func(s *Server)
		want  any
	}{
		{"no contexts", func(*Server) {}, nil},
		{"all green", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "test", "success", "")
			s.SetStatus(testRepo, 7, "ci/lint", "success")
		}, "SUCCESS"},
		{"a failed check", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "test", "failure", "")
			s.SetStatus(testRepo, 7, "ci/lint", "success")
		}, "FAILURE"},
		{"a re-run replaces the run", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "test", "failure", "")
			s.CompleteCheck(testRepo, 7, "test", "success", "")
		}, "SUCCESS"},
		{"a passing status does not hide a failed check run of its name", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "ci", "failure", "ci-app")
			s.SetStatus(testRepo, 7, "ci", "success")
		}, "FAILURE"},
		{"nor does another app's passing run", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "build", "failure", "app-one")
			s.CompleteCheck(testRepo, 7, "build", "success", "app-two")
		}, "FAILURE"},
		{"nor another workflow's passing job", func(s *Server) {
			s.CompleteJob(testRepo, 7, "release", "build", "failure")
			s.CompleteJob(testRepo, 7, "ci", "build", "success")
		}, "FAILURE"},
		{"a re-run of a job replaces it in its workflow run", func(s *Server) {
			s.CompleteJob(testRepo, 7, "ci", "build", "failure")
			s.CompleteJob(testRepo, 7, "ci", "build", "success")
		}, "SUCCESS"},
		{"an errored status", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "lint", "failure", "linter")
			s.SetStatus(testRepo, 7, "ci/x", "error")
		}, "ERROR"},
		{"a push leaves old checks behind", func(s *Server) {
			s.CompleteCheck(testRepo, 7, "test", "failure", "")
			s.Push(testRepo, 7)
		}, nil},
	}
	q := `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
	  commits(last: 1) { nodes { commit { statusCheckRollup { state } } } } } } }`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := widgets(t)
			tt.apply(s)
			out := gql(t, s, s.BotToken(), q, nil)
			require.Nil(t, out["errors"])
			rollup := dig(t, out, "data", "repository", "pullRequest", "commits", "nodes", 0, "commit", "statusCheckRollup")
			if tt.want == nil {
				assert.Nil(t, rollup)
				return
			}
			assert.Equal(t, tt.want, dig(t, rollup, "state"))
		})
	}
}

func TestGraphQLDismissedReview(t *testing.T) {
	s := widgets(t)
	s.Review(testRepo, 7, "alice", "approved", "")
	s.DismissReview(testRepo, 7, "alice")
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
	  reviews(first: 5) { nodes { state } } } } }`, nil)
	assert.Equal(t, "DISMISSED", dig(t, out, "data", "repository", "pullRequest", "reviews", "nodes", 0, "state"))
}
