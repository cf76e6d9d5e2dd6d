package ghfake

import (
	"encoding/base64"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const stateBranch = "pipeline-action/state"

const commitMutation = `mutation($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { clientMutationId commit { oid messageHeadline parents(first: 2) { nodes { oid } } } ref { name target { oid } } } }`

const createRefMutationDoc = `mutation($input: CreateRefInput!) { createRef(input: $input) { clientMutationId ref { id name target { oid } } } }`

const deleteRefMutationDoc = `mutation($input: DeleteRefInput!) { deleteRef(input: $input) { clientMutationId } }`

// stateQuery reads what the adapter reads of the state branch: its head, the last commit
// that changed pr-7.json with its author and signature, and the file's blob.
const stateQuery = `{ repository(owner: "acme", name: "widgets") {
  ref(qualifiedName: "refs/heads/pipeline-action/state") { target { oid ... on Commit {
    history(first: 1, path: "pr-7.json") { nodes { oid message committedViaWeb authoredByCommitter
      author { name email user { login } } committer { name email user { login } }
      signature { isValid wasSignedByGitHub signer { login } state email } } } } } }
  object(expression: "pipeline-action/state:pr-7.json") { ... on Blob { oid text } } } }`

// commitInput is createCommitOnBranch's input on branch of acme/widgets.
func commitInput(branch, expected string, adds map[string]string, dels ...string) map[string]any {
	var additions, deletions []any
	for _, p := range slices.Sorted(maps.Keys(adds)) {
		additions = append(additions, map[string]any{"path": p, "contents": base64.StdEncoding.EncodeToString([]byte(adds[p]))})
	}
	for _, p := range dels {
		deletions = append(deletions, map[string]any{"path": p})
	}
	return map[string]any{"input": map[string]any{
		"branch":           map[string]any{"repositoryNameWithOwner": testRepo, "branchName": branch},
		"expectedHeadOid":  expected,
		"message":          map[string]any{"headline": "pr-7 auto-merge: ci → merge", "body": "check_run.completed by ci"},
		"fileChanges":      map[string]any{"additions": additions, "deletions": deletions},
		"clientMutationId": "m1",
	}}
}

// stateWorld is world with the state branch made by createRef from main's head.
func stateWorld(t *testing.T) (*Server, string) {
	t.Helper()
	s := widgets(t)
	main := headOf(s, "main")
	out := gql(t, s, s.BotToken(), createRefMutationDoc, map[string]any{"input": map[string]any{
		"repositoryId": repoID(t, s), "name": "refs/heads/" + stateBranch, "oid": main, "clientMutationId": "r1"}})
	require.Nil(t, out["errors"])
	assert.Equal(t, "r1", dig(t, out, "data", "createRef", "clientMutationId"))
	assert.Equal(t, stateBranch, dig(t, out, "data", "createRef", "ref", "name"))
	assert.Equal(t, main, dig(t, out, "data", "createRef", "ref", "target", "oid"))
	return s, main
}

func repoID(t *testing.T, s *Server) string {
	t.Helper()
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { id } }`, nil)
	return dig(t, out, "data", "repository", "id").(string)
}

// gqlErr is the only error entry of out, with data's field null.
func gqlErr(t *testing.T, out map[string]any, field string) map[string]any {
	t.Helper()
	errs, _ := out["errors"].([]any)
	require.Len(t, errs, 1, "%v", out)
	assert.Nil(t, dig(t, out, "data", field), "the payload is null")
	assert.Equal(t, []any{field}, dig(t, errs[0], "path"))
	return errs[0].(map[string]any)
}

// A commit through createCommitOnBranch lands on the expected head, is authored by the viewer
// and committed and signed by GitHub, and reads back through the fields the adapter reads.
func TestCreateCommitOnBranch(t *testing.T) {
	s, main := stateWorld(t)
	out := gql(t, s, s.BotToken(), commitMutation, commitInput(stateBranch, main, map[string]string{"pr-7.json": `{"seq":1}`, "index.json": "[]"}))
	require.Nil(t, out["errors"])
	p := dig(t, out, "data", "createCommitOnBranch")
	head := dig(t, p, "commit", "oid").(string)
	assert.Equal(t, "m1", dig(t, p, "clientMutationId"))
	assert.Equal(t, "pr-7 auto-merge: ci → merge", dig(t, p, "commit", "messageHeadline"))
	assert.Equal(t, []any{main}, column(t, dig(t, p, "commit", "parents", "nodes"), "oid"))
	assert.Equal(t, stateBranch, dig(t, p, "ref", "name"))
	assert.Equal(t, head, dig(t, p, "ref", "target", "oid"))
	assert.Equal(t, head, headOf(s, stateBranch))

	out = gql(t, s, s.BotToken(), stateQuery, nil)
	require.Nil(t, out["errors"])
	repo := dig(t, out, "data", "repository")
	assert.Equal(t, head, dig(t, repo, "ref", "target", "oid"))
	c := dig(t, repo, "ref", "target", "history", "nodes", 0)
	assert.Equal(t, head, dig(t, c, "oid"))
	assert.Equal(t, "pr-7 auto-merge: ci → merge\n\ncheck_run.completed by ci", dig(t, c, "message"))
	assert.Equal(t, true, dig(t, c, "committedViaWeb"))
	assert.Equal(t, false, dig(t, c, "authoredByCommitter"))
	assert.Equal(t, BotLogin, dig(t, c, "author", "user", "login"), "a bot's commits match its account, [bot] and all")
	assert.Equal(t, BotLogin, dig(t, c, "author", "name"))
	assert.Regexp(t, `^\d+\+github-actions\[bot\]@users\.noreply\.github\.com$`, dig(t, c, "author", "email"))
	assert.Equal(t, map[string]any{"name": "GitHub", "email": "noreply@github.com", "user": map[string]any{"login": "web-flow"}}, dig(t, c, "committer"))
	assert.Equal(t, map[string]any{"isValid": true, "wasSignedByGitHub": true, "signer": map[string]any{"login": "web-flow"},
		"state": "VALID", "email": "noreply@github.com"}, dig(t, c, "signature"))
	assert.Equal(t, map[string]any{"oid": world.BlobOID(`{"seq":1}`), "text": `{"seq":1}`}, dig(t, repo, "object"))

	// A second commit deletes one file and changes another; history(path:) still names the
	// commit that last changed pr-7.json.
	out = gql(t, s, s.BotToken(), commitMutation, commitInput(stateBranch, head, map[string]string{"pr-8.json": "{}"}, "index.json"))
	require.Nil(t, out["errors"])
	second := dig(t, out, "data", "createCommitOnBranch", "commit", "oid")
	assert.Equal(t, map[string]string{".github/pipelines.yaml": "version: 1\n", "pr-7.json": `{"seq":1}`, "pr-8.json": "{}"}, s.BranchFiles(testRepo, stateBranch))
	out = gql(t, s, s.BotToken(), stateQuery, nil)
	require.Nil(t, out["errors"])
	assert.Equal(t, second, dig(t, out, "data", "repository", "ref", "target", "oid"))
	assert.Equal(t, head, dig(t, out, "data", "repository", "ref", "target", "history", "nodes", 0, "oid"))

	log := s.BranchLog(testRepo, stateBranch)
	require.GreaterOrEqual(t, len(log), 3)
	assert.Equal(t, []string{second.(string), head, main}, []string{log[0].SHA, log[1].SHA, log[2].SHA})
	assert.True(t, log[0].SignedByGitHub)
	assert.Equal(t, BotLogin, log[0].Author)
	assert.False(t, log[2].SignedByGitHub, "a push is not signed")
	assert.Equal(t, "acme", log[2].Author)
	assert.Equal(t, "pr-7 auto-merge: ci → merge\n\ncheck_run.completed by ci", log[1].Message)
}

// Every refusal of createCommitOnBranch is GitHub's: its type and its words, a null payload,
// and the branch left as it was.
func TestCreateCommitOnBranchRefusals(t *testing.T) {
	s, main := stateWorld(t)
	out := gql(t, s, s.BotToken(), commitMutation, commitInput(stateBranch, main, map[string]string{"pr-7.json": "1"}))
	require.Nil(t, out["errors"])
	head := headOf(s, stateBranch)
	other := headOf(s, "main")
	ghost := world.FakeSHA("no such commit")

	cases := []struct {
		name, token string
		input       map[string]any
		typ, msg    string
	}{
		{"stale head", s.BotToken(), commitInput(stateBranch, main, map[string]string{"pr-7.json": "2"}),
			"STALE_DATA", `Expected branch to point to "` + main + `" but it did not.  Pull and try again.`},
		{"a commit of another branch", s.BotToken(), commitInput(stateBranch, headOf(s, "feat/login"), nil),
			"STALE_DATA", `Expected branch to point to "` + headOf(s, "feat/login") + `" but it did not.  Pull and try again.`},
		{"no such commit", s.BotToken(), commitInput(stateBranch, ghost, nil),
			"NOT_FOUND", "No commit exists with specified expectedHeadOid '" + ghost + "'."},
		{"no such branch", s.BotToken(), commitInput("pipeline-action/gone", other, nil),
			"NOT_FOUND", "Branch not found"},
		{"deleting a file that is not there", s.BotToken(), commitInput(stateBranch, head, nil, "pr-9.json"),
			"NOT_FOUND", "A path was requested for deletion which does not exist as of commit oid `" + head + "`"},
		{"a reader", s.Token("mallory"), commitInput(stateBranch, head, map[string]string{"pr-7.json": "3"}),
			"FORBIDDEN", "mallory does not have the correct permissions to execute `CreateCommitOnBranch`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := gql(t, s, tc.token, commitMutation, tc.input)
			e := gqlErr(t, out, "createCommitOnBranch")
			assert.Equal(t, tc.typ, e["type"])
			assert.Equal(t, tc.msg, e["message"])
			assert.Equal(t, head, headOf(s, stateBranch), "the branch did not move")
		})
	}

	in := commitInput(stateBranch, head, nil)
	in["input"].(map[string]any)["branch"] = map[string]any{"repositoryNameWithOwner": "acme/nothing", "branchName": stateBranch}
	e := gqlErr(t, gql(t, s, s.BotToken(), commitMutation, in), "createCommitOnBranch")
	assert.Equal(t, "NOT_FOUND", e["type"])
	assert.Equal(t, "Could not resolve to a Repository with the name 'acme/nothing'.", e["message"])
}

// The branch may be named by its Ref's node id, and its name may carry refs/heads/.
func TestCreateCommitOnBranchByRef(t *testing.T) {
	s, main := stateWorld(t)
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { ref(qualifiedName: "refs/heads/pipeline-action/state") { id } } }`, nil)
	id := dig(t, out, "data", "repository", "ref", "id")
	in := commitInput(stateBranch, main, map[string]string{"pr-7.json": "1"})
	in["input"].(map[string]any)["branch"] = map[string]any{"id": id}
	out = gql(t, s, s.BotToken(), commitMutation, in)
	require.Nil(t, out["errors"])
	first := headOf(s, stateBranch)
	assert.NotEqual(t, main, first)

	out = gql(t, s, s.BotToken(), commitMutation, commitInput("refs/heads/"+stateBranch, first, map[string]string{"pr-7.json": "2"}))
	require.Nil(t, out["errors"])
	assert.Equal(t, "2", s.BranchFiles(testRepo, stateBranch)["pr-7.json"])

	in["input"].(map[string]any)["branch"] = map[string]any{"id": "UmVmOm5vdGhpbmc="}
	e := gqlErr(t, gql(t, s, s.BotToken(), commitMutation, in), "createCommitOnBranch")
	assert.Equal(t, "NOT_FOUND", e["type"])
	assert.Equal(t, "Could not resolve to a node with the global id of 'UmVmOm5vdGhpbmc='", e["message"])
}

// createRef refuses a branch that exists and a commit that does not; deleteRef deletes a
// branch by its Ref's id, after which the ref reads as null and commits to it fail.
func TestCreateAndDeleteRef(t *testing.T) {
	s, main := stateWorld(t)
	refIn := func(name, oid string) map[string]any {
		return map[string]any{"input": map[string]any{"repositoryId": repoID(t, s), "name": name, "oid": oid}}
	}
	e := gqlErr(t, gql(t, s, s.BotToken(), createRefMutationDoc, refIn("refs/heads/"+stateBranch, main)), "createRef")
	assert.Equal(t, "UNPROCESSABLE", e["type"])
	assert.Equal(t, `A ref named "refs/heads/pipeline-action/state" already exists in the repository.`, e["message"])
	e = gqlErr(t, gql(t, s, s.BotToken(), createRefMutationDoc, refIn("refs/heads/x", world.FakeSHA("none"))), "createRef")
	assert.Equal(t, "UNPROCESSABLE", e["type"])
	assert.NotContains(t, s.Branches(testRepo), "x")
	e = gqlErr(t, gql(t, s, s.Token("mallory"), createRefMutationDoc, refIn("refs/heads/x", main)), "createRef")
	assert.Equal(t, "FORBIDDEN", e["type"])

	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { ref(qualifiedName: "refs/heads/pipeline-action/state") { id } } }`, nil)
	id := dig(t, out, "data", "repository", "ref", "id")
	out = gql(t, s, s.BotToken(), deleteRefMutationDoc, map[string]any{"input": map[string]any{"refId": id, "clientMutationId": "d"}})
	require.Nil(t, out["errors"])
	assert.Equal(t, "d", dig(t, out, "data", "deleteRef", "clientMutationId"))
	assert.NotContains(t, s.Branches(testRepo), stateBranch)
	out = gql(t, s, s.BotToken(), stateQuery, nil)
	require.Nil(t, out["errors"])
	assert.Nil(t, dig(t, out, "data", "repository", "ref"))
	assert.Nil(t, dig(t, out, "data", "repository", "object"))
	e = gqlErr(t, gql(t, s, s.BotToken(), commitMutation, commitInput(stateBranch, main, nil)), "createCommitOnBranch")
	assert.Equal(t, "Branch not found", e["message"])
	e = gqlErr(t, gql(t, s, s.BotToken(), deleteRefMutationDoc, map[string]any{"input": map[string]any{"refId": id}}), "deleteRef")
	assert.Equal(t, "NOT_FOUND", e["type"])

	// Made again, from the same commit, the branch holds that commit's files.
	out = gql(t, s, s.BotToken(), createRefMutationDoc, refIn("refs/heads/"+stateBranch, main))
	require.Nil(t, out["errors"])
	assert.Equal(t, map[string]string{".github/pipelines.yaml": "version: 1\n"}, s.BranchFiles(testRepo, stateBranch))
	assert.True(t, s.DeleteBranch(testRepo, stateBranch))
	assert.False(t, s.DeleteBranch(testRepo, stateBranch))
	_, ok := s.BranchHead(testRepo, stateBranch)
	assert.False(t, ok)
}

// A ruleset restricting creations and updates of the state branch refuses every way of
// writing it, in GitHub's words; deleting it stays possible.
func TestRestrictBranch(t *testing.T) {
	ctx := t.Context()
	s, main := stateWorld(t)
	s.RestrictBranch(testRepo, stateBranch)
	s.RestrictBranch(testRepo, "guarded")
	head := headOf(s, stateBranch)

	e := gqlErr(t, gql(t, s, s.BotToken(), commitMutation, commitInput(stateBranch, head, map[string]string{"pr-7.json": "1"})), "createCommitOnBranch")
	assert.Equal(t, "FORBIDDEN", e["type"])
	assert.Equal(t, "Repository rule violations found\n\nCannot update this protected ref.\n\n", e["message"])
	assert.Equal(t, head, headOf(s, stateBranch))

	e = gqlErr(t, gql(t, s, s.BotToken(), createRefMutationDoc, map[string]any{"input": map[string]any{
		"repositoryId": repoID(t, s), "name": "refs/heads/guarded", "oid": main}}), "createRef")
	assert.Equal(t, "FORBIDDEN", e["type"])
	assert.Equal(t, "Repository rule violations found\n\nCannot create ref due to creations being restricted.\n\n", e["message"])

	c := client(t, s, s.BotToken())
	_, resp, err := c.Git.CreateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/guarded"), Object: &github.GitObject{SHA: github.String(main)}})
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	var ge *github.ErrorResponse
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, "Repository rule violations found\n\nCannot create ref due to creations being restricted.\n\n", ge.Message)
	assert.Equal(t, "https://docs.github.com/rest/git/refs#create-a-reference", ge.DocumentationURL)
	assert.NotContains(t, s.Branches(testRepo), "guarded")

	_, resp, err = c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/" + stateBranch), Object: &github.GitObject{SHA: github.String(headOf(s, "main"))}}, false)
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, "Repository rule violations found\n\nCannot update this protected ref.\n\n", ge.Message)

	_, err = s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", Files: map[string]string{"pr-7.json": "x"}})
	assert.True(t, errors.Is(err, ErrRuleViolation), "%v", err)
	assert.Equal(t, head, headOf(s, stateBranch))

	// A ruleset on the base refuses the merge.
	s.RestrictBranch(testRepo, "main")
	_, resp, err = c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	require.Error(t, err)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.False(t, s.PR(testRepo, 7).Merged)

	_, err = c.Git.DeleteRef(ctx, "acme", "widgets", "heads/"+stateBranch)
	require.NoError(t, err, "deletion is not restricted")
}

// A commit anyone with write access pushes may claim any author: GitHub matches the author
// with the account the email names, and only the signature tells who made it.
func TestPushCommitClaimsAnAuthor(t *testing.T) {
	s, _ := stateWorld(t)
	forged, err := s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", Author: BotLogin, Files: map[string]string{"pr-7.json": `{"forged":true}`}})
	require.NoError(t, err)
	out := gql(t, s, s.BotToken(), stateQuery, nil)
	require.Nil(t, out["errors"])
	c := dig(t, out, "data", "repository", "ref", "target", "history", "nodes", 0)
	assert.Equal(t, forged, dig(t, c, "oid"))
	assert.Equal(t, BotLogin, dig(t, c, "author", "user", "login"))
	assert.Nil(t, dig(t, c, "signature"))
	assert.Equal(t, false, dig(t, c, "committedViaWeb"))
	assert.Equal(t, true, dig(t, c, "authoredByCommitter"))

	_, err = s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", SignedBy: "alice", Files: map[string]string{"pr-7.json": "{}"}})
	require.NoError(t, err)
	out = gql(t, s, s.BotToken(), stateQuery, nil)
	sig := dig(t, out, "data", "repository", "ref", "target", "history", "nodes", 0, "signature")
	assert.Equal(t, false, dig(t, sig, "wasSignedByGitHub"))
	assert.Equal(t, "alice", dig(t, sig, "signer", "login"))

	_, err = s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "mallory", Files: map[string]string{"pr-7.json": "{}"}})
	assert.Error(t, err, "a reader cannot push")
	// A new branch is made from the default branch.
	_, err = s.PushCommit(testRepo, "other", GitPush{Pusher: "alice", Files: map[string]string{"a": "b"}})
	require.NoError(t, err)
	assert.Equal(t, "b", s.BranchFiles(testRepo, "other")["a"])
	assert.Nil(t, s.BranchFiles(testRepo, "none"))
}

// "Get rules for a branch" lists a restricting ruleset's rules for the branch, existing or not,
// and nothing for a branch no ruleset targets.
func TestBranchRules(t *testing.T) {
	ctx := t.Context()
	s, _ := stateWorld(t)
	s.RestrictBranch(testRepo, "guarded")
	s.RestrictBranch(testRepo, stateBranch)
	c := client(t, s, s.BotToken())
	rules := func(branch string) []map[string]any {
		req, err := c.NewRequest("GET", "repos/acme/widgets/rules/branches/"+url.PathEscape(branch), nil)
		require.NoError(t, err)
		var out []map[string]any
		resp, err := c.Do(ctx, req, &out)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		return out
	}
	assert.Equal(t, []map[string]any{
		{"type": "creation", "ruleset_source_type": "Repository", "ruleset_source": "acme/widgets", "ruleset_id": float64(2)},
		{"type": "update", "ruleset_source_type": "Repository", "ruleset_source": "acme/widgets", "ruleset_id": float64(2)},
	}, rules(stateBranch))
	assert.Len(t, rules("guarded"), 2, "a branch that does not exist yet")
	assert.Empty(t, rules("main"))
}

// GitHub's PATCH git/refs moves a branch only forward unless force is sent: a commit that
// does not descend from the branch's head is refused with 422 "Update is not a fast
// forward", and the branch stays where it was.
func TestUpdateRefFastForwardOnly(t *testing.T) {
	s, main := stateWorld(t)
	ctx := t.Context()
	c := client(t, s, s.BotToken())
	update := func(sha string, force bool) (*http.Response, error) {
		_, resp, err := c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{
			Ref: github.String("refs/heads/" + stateBranch), Object: &github.GitObject{SHA: github.String(sha)}}, force)
		if resp == nil {
			return nil, err
		}
		return resp.Response, err
	}
	first, err := s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", Files: map[string]string{"a.json": "1"}})
	require.NoError(t, err)
	second, err := s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", Files: map[string]string{"a.json": "2"}})
	require.NoError(t, err)

	// Back to an ancestor, or to a commit of another line (main's head is an ancestor too,
	// but a branch of its own): neither is a fast-forward.
	for _, sha := range []string{first, main} {
		resp, err := update(sha, false)
		require.Error(t, err, sha)
		assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
		var ge *github.ErrorResponse
		require.ErrorAs(t, err, &ge)
		assert.Equal(t, "Update is not a fast forward", ge.Message)
		assert.Equal(t, "https://docs.github.com/rest/git/refs#update-a-reference", ge.DocumentationURL)
		assert.Equal(t, second, headOf(s, stateBranch))
	}
	other, err := s.PushCommit(testRepo, "other", GitPush{Pusher: "alice", Files: map[string]string{"b.json": "1"}})
	require.NoError(t, err)
	resp, err := update(other, false)
	require.Error(t, err, "a commit on another line")
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)

	// The same head, and a descendant, are fast-forwards; force moves it anywhere.
	_, err = update(second, false)
	require.NoError(t, err)
	resp, err = update(first, true)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, first, headOf(s, stateBranch))
	_, err = update(second, false)
	require.NoError(t, err, "forward again")
	assert.Equal(t, second, headOf(s, stateBranch))
}
