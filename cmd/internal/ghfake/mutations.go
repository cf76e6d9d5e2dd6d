package ghfake

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// Mutation payloads are objects (obj) whose keys are the payload type's fields; the executor reads
// them directly and refuses, loudly, a field the fake does not fill.

// payloadFields are the keys each mutation's payload obj has: the payload fields the fake serves
// (schema_subset.graphql keeps these; TestPayloadFields holds the mutations to them).
var payloadFields = map[string][]string{
	"CreateCommitOnBranchPayload": {"clientMutationId", "commit", "ref"},
	"AddCommentPayload":           {"clientMutationId", "commentEdge", "subject"},
	"UpdateIssueCommentPayload":   {"clientMutationId", "issueComment"},
}

func init() {
	on("Mutation", map[string]resolver{
		"createCommitOnBranch": createCommitOnBranch,
		"addComment":           addCommentMutation,
		"updateIssueComment":   updateIssueCommentMutation,
	})
	resolvers["Query.node"] = func(e *executor, _ any, a map[string]any) (any, error) {
		return e.s.findNode(strArg(a, "id")), nil
	}
}

// input is a mutation's input object.
func input(a map[string]any) map[string]any {
	in, _ := a["input"].(map[string]any)
	return in
}

// createCommitOnBranch commits file changes on a branch with compare-and-swap on its head, as
// https://docs.github.com/graphql/reference/mutations#createcommitonbranch does.
func createCommitOnBranch(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	br, _ := in["branch"].(map[string]any)
	repoName, _ := br["repositoryNameWithOwner"].(string)
	name, _ := br["branchName"].(string)
	if repoName == "" || name == "" {
		return nil, fmt.Errorf("ghfake: createCommitOnBranch needs branch.repositoryNameWithOwner and branch.branchName")
	}
	r := e.s.repos[repoName]
	if r == nil {
		return nil, fmt.Errorf("Could not resolve to a Repository with the name '%s'.", repoName)
	}
	b := r.branches[strings.TrimPrefix(name, "refs/heads/")]
	if b == nil {
		return nil, fmt.Errorf("A ref named \"refs/heads/%s\" does not exist.", name)
	}
	if want, _ := in["expectedHeadOid"].(string); want != b.head {
		return nil, fmt.Errorf("Expected branch to point to \"%s\" but it did not. Pull and try again.", want)
	}
	changes, _ := in["fileChanges"].(map[string]any)
	adds, _ := changes["additions"].([]any)
	dels, _ := changes["deletions"].([]any)
	files := map[string]*blob{}
	for p, bl := range b.files {
		files[p] = bl
	}
	for _, x := range adds {
		f, _ := x.(map[string]any)
		path, _ := f["path"].(string)
		enc, _ := f["contents"].(string)
		raw, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			return nil, fmt.Errorf("contents of %q is not base64: %v", path, err)
		}
		bl := &blob{oid: blobOID(string(raw)), text: string(raw)}
		r.blobs[bl.oid] = bl
		files[path] = bl
	}
	for _, x := range dels {
		f, _ := x.(map[string]any)
		path, _ := f["path"].(string)
		delete(files, path)
	}
	msg, _ := in["message"].(map[string]any)
	headline, _ := msg["headline"].(string)
	if body, _ := msg["body"].(string); body != "" {
		headline += "\n\n" + body
	}
	r.pushes++
	c := e.s.newCommit(r, headline, []string{b.head}, files, r.fullName(), b.name, b.head, r.pushes)
	b.head, b.files = c.sha, files
	return obj{"commit": c, "ref": ref{r, b.name}, "clientMutationId": in["clientMutationId"]}, nil
}

// addCommentMutation comments on an issue or pull request by node id as the viewer.
func addCommentMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["subjectId"].(string)
	is, ok := e.s.findNode(id).(*issue)
	if !ok {
		return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
	}
	body, _ := in["body"].(string)
	c := e.s.addComment(is.repo, is, e.login, body)
	return obj{"commentEdge": edge{node: c, cursor: cursor(0)}, "subject": is, "clientMutationId": in["clientMutationId"]}, nil
}

// updateIssueCommentMutation edits a comment by node id.
func updateIssueCommentMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["id"].(string)
	c, ok := e.s.findNode(id).(*comment)
	if !ok {
		return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
	}
	body, _ := in["body"].(string)
	c.edit(e.login, body, e.s.clock())
	return obj{"issueComment": c, "clientMutationId": in["clientMutationId"]}, nil
}

// findNode resolves a global id to an issue, pull request or comment; nil when unknown. The
// caller holds s.mu.
func (s *Server) findNode(id string) any {
	for _, r := range s.repos {
		for _, is := range r.issues {
			if nodeID("PullRequest", is.id) == id && is.isPR || nodeID("Issue", is.id) == id && !is.isPR {
				return is
			}
		}
		for _, c := range r.comments {
			if nodeID("IssueComment", c.id) == id {
				return c
			}
		}
	}
	return nil
}
