package graphql

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Mutation payloads are objects (obj) whose keys are the payload type's fields; the executor reads
// them directly and refuses, loudly, a field the fake does not fill.

// PayloadFields are the keys each mutation's payload obj has: the payload fields the fake serves
// (schema_subset.graphql keeps these; TestPayloadFields holds the mutations to them).
var PayloadFields = map[string][]string{
	"CreateCommitOnBranchPayload":    {"clientMutationId", "commit", "ref"},
	"CreateRefPayload":               {"clientMutationId", "ref"},
	"DeleteRefPayload":               {"clientMutationId"},
	"AddCommentPayload":              {"clientMutationId", "commentEdge", "subject"},
	"UpdateIssueCommentPayload":      {"clientMutationId", "issueComment"},
	"EnqueuePullRequestPayload":      {"clientMutationId", "mergeQueueEntry"},
	"DequeuePullRequestPayload":      {"clientMutationId", "mergeQueueEntry"},
	"UpdatePullRequestBranchPayload": {"clientMutationId", "pullRequest"},
}

func mutationResolvers() {
	on("Mutation", map[string]resolver{
		"createCommitOnBranch": createCommitOnBranch,
		"createRef":            createRefMutation,
		"deleteRef":            deleteRefMutation,
		"addComment":           addCommentMutation,
		"updateIssueComment":   updateIssueCommentMutation,
	})
}

// input is a mutation's input object.
func input(a map[string]any) map[string]any {
	in, _ := a["input"].(map[string]any)
	return in
}

// createCommitOnBranch appends a commit to a branch with compare-and-swap on its head, as
// https://docs.github.com/graphql/reference/mutations#createcommitonbranch does: the commit is
// authored by the viewer, committed and signed by GitHub (web-flow), its parent the head the
// caller expected. Its refusals are GitHub's, in GitHub's order: the branch (by node id, or
// by repositoryNameWithOwner and branchName), the viewer's permission, expectedHeadOid
// naming a commit, the deletions naming files, the head still being expectedHeadOid, and
// the rulesets of the branch.
func createCommitOnBranch(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	r, b, err := e.committableBranch(in["branch"])
	if err != nil {
		return nil, err
	}
	if err := e.mayWrite("CreateCommitOnBranch"); err != nil {
		return nil, err
	}
	want, _ := in["expectedHeadOid"].(string)
	if r.Commits[want] == nil {
		return nil, errorOf("NOT_FOUND", "No commit exists with specified expectedHeadOid '%s'.", want)
	}
	changes, _ := in["fileChanges"].(map[string]any)
	adds, _ := changes["additions"].([]any)
	dels, _ := changes["deletions"].([]any)
	files := world.CopyFiles(b.Files)
	for _, x := range dels {
		f, _ := x.(map[string]any)
		path, _ := f["path"].(string)
		if files[path] == nil {
			return nil, errorOf("NOT_FOUND", "A path was requested for deletion which does not exist as of commit oid `%s`", b.Head)
		}
		delete(files, path)
	}
	for _, x := range adds {
		f, _ := x.(map[string]any)
		path, _ := f["path"].(string)
		enc, _ := f["contents"].(string)
		raw, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			return nil, errorOf("UNPROCESSABLE", "contents of %q is not base64: %v", path, err)
		}
		bl := &world.Blob{OID: world.BlobOID(string(raw)), Text: string(raw)}
		r.Blobs[bl.OID] = bl
		files[path] = bl
	}
	if want != b.Head {
		// GitHub's words, with the two spaces before "Pull".
		return nil, errorOf("STALE_DATA", "Expected branch to point to %q but it did not.  Pull and try again.", want)
	}
	if rule := r.RefusedBy(b.Name, true); rule != "" {
		return nil, errorOf("FORBIDDEN", "%s", world.RuleViolation(rule))
	}
	msg, _ := in["message"].(map[string]any)
	message, _ := msg["headline"].(string)
	if body, _ := msg["body"].(string); body != "" {
		message += "\n\n" + body
	}
	r.Pushes++
	c := e.s.NewCommit(r, message, []string{b.Head}, files, r.FullName(), b.Name, b.Head, r.Pushes).Authored(e.login, true)
	r.LogPush(b.Name, b.Head, c.SHA, e.login)
	b.Head, b.Files = c.SHA, files
	return shapes.Obj{"commit": c, "ref": ref{r, b.Name}, "clientMutationId": in["clientMutationId"]}, nil
}

// committableBranch resolves a CommittableBranch: a Ref's node id, or the repository's
// nameWithOwner and the branch's name (refs/heads/ optional).
func (e *executor) committableBranch(v any) (*world.Repo, *world.Branch, error) {
	br, _ := v.(map[string]any)
	if id, _ := br["id"].(string); id != "" {
		if x, ok := e.s.findNode(id).(ref); ok {
			return x.repo, x.repo.Branches[x.name], nil
		}
		return nil, nil, errorOf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
	}
	repoName, _ := br["repositoryNameWithOwner"].(string)
	r := e.s.Repos[repoName]
	if r == nil {
		return nil, nil, errorOf("NOT_FOUND", "Could not resolve to a Repository with the name '%s'.", repoName)
	}
	name, _ := br["branchName"].(string)
	b := r.Branches[strings.TrimPrefix(name, "refs/heads/")]
	if b == nil {
		return nil, nil, errorOf("NOT_FOUND", "Branch not found")
	}
	return r, b, nil
}

// mayWrite refuses a mutation that writes contents to a viewer who may not push, as GitHub
// refuses an installation token without contents: write ("Resource not accessible by
// integration") or a user without write access.
func (e *executor) mayWrite(mutation string) error {
	if world.CanPush(e.s.PermissionOf(e.login)) {
		return nil
	}
	if shapes.IsBot(e.login) {
		return errorOf("FORBIDDEN", "Resource not accessible by integration")
	}
	return errorOf("FORBIDDEN", "%s does not have the correct permissions to execute `%s`", e.login, mutation)
}

// createRefMutation creates a ref (a branch: refs/heads/...) at a commit, as
// https://docs.github.com/graphql/reference/mutations#createref does.
func createRefMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["repositoryId"].(string)
	r, ok := e.s.findNode(id).(*world.Repo)
	if !ok {
		return nil, errorOf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
	}
	if err := e.mayWrite("CreateRef"); err != nil {
		return nil, err
	}
	qualified, _ := in["name"].(string)
	name, ok := strings.CutPrefix(qualified, "refs/heads/")
	if !ok || name == "" {
		return nil, fmt.Errorf("ghfake: createRef makes branches only (refs/heads/...), not %q", qualified)
	}
	oid, _ := in["oid"].(string)
	c := r.Commits[oid]
	switch {
	case r.Branches[name] != nil:
		return nil, errorOf("UNPROCESSABLE", "A ref named %q already exists in the repository.", qualified)
	case c == nil:
		return nil, errorOf("UNPROCESSABLE", "Object does not exist")
	case r.RefusedBy(name, false) != "":
		return nil, errorOf("FORBIDDEN", "%s", world.RuleViolation(r.RefusedBy(name, false)))
	}
	r.Branches[name] = &world.Branch{Name: name, Head: oid, Files: world.CopyFiles(c.Files)}
	r.LogPush(name, "", oid, e.login)
	return shapes.Obj{"ref": ref{r, name}, "clientMutationId": in["clientMutationId"]}, nil
}

// deleteRefMutation deletes a ref by node id, as
// https://docs.github.com/graphql/reference/mutations#deleteref does.
func deleteRefMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["refId"].(string)
	x, ok := e.s.findNode(id).(ref)
	if !ok {
		return nil, errorOf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
	}
	if err := e.mayWrite("DeleteRef"); err != nil {
		return nil, err
	}
	if x.name == x.repo.DefaultBranch {
		return nil, errorOf("UNPROCESSABLE", "Cannot delete this branch")
	}
	e.s.RemoveBranch(x.repo, x.name)
	return shapes.Obj{"clientMutationId": in["clientMutationId"]}, nil
}

// addCommentMutation comments on an issue or pull request by node id as the viewer.
func addCommentMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["subjectId"].(string)
	is, ok := e.s.findNode(id).(*world.Issue)
	if !ok {
		return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
	}
	body, _ := in["body"].(string)
	c := e.s.AddComment(is.Repo, is, e.login, body)
	return shapes.Obj{"commentEdge": edge{Node: c, Cursor: cursor(0)}, "subject": is, "clientMutationId": in["clientMutationId"]}, nil
}

// updateIssueCommentMutation edits a comment by node id.
func updateIssueCommentMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["id"].(string)
	c, ok := e.s.findNode(id).(*world.Comment)
	if !ok {
		return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
	}
	body, _ := in["body"].(string)
	c.Edit(e.login, body, e.s.Clock())
	return shapes.Obj{"issueComment": c, "clientMutationId": in["clientMutationId"]}, nil
}

// findNode resolves a global id to a repository, a branch's ref, an issue, a pull request or
// a comment; nil when unknown. The caller holds Mu.
func (s *Env) findNode(id string) any {
	for _, r := range s.Repos {
		if world.NodeID("Repository", r.ID) == id {
			return r
		}
		for name := range r.Branches {
			if world.RefNodeID(r, name) == id {
				return ref{r, name}
			}
		}
		for _, is := range r.Issues {
			if world.NodeID("PullRequest", is.ID) == id && is.IsPR || world.NodeID("Issue", is.ID) == id && !is.IsPR {
				return is
			}
		}
		for _, c := range r.Comments {
			if world.NodeID("IssueComment", c.ID) == id {
				return c
			}
		}
	}
	return nil
}
