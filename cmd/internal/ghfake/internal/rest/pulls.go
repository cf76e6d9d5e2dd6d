package rest

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// pullsGet: https://docs.github.com/rest/pulls/pulls#get-a-pull-request
func pullsGet(s *Env, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, NotFound()
	}
	return http.StatusOK, s.PRJSON(c.repo, pr)
}

// pullsMerge: https://docs.github.com/rest/pulls/pulls#merge-a-pull-request
func pullsMerge(s *Env, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, NotFound()
	}
	var in struct {
		CommitTitle   string `json:"commit_title"`
		CommitMessage string `json:"commit_message"`
		SHA           string `json:"sha"`
		MergeMethod   string `json:"merge_method"`
	}
	if len(c.body) > 0 {
		if code, body, ok := c.decode(&in); !ok {
			return code, body
		}
	}
	if in.MergeMethod == "" {
		in.MergeMethod = "merge"
	}
	switch {
	case in.MergeMethod != "merge" && in.MergeMethod != "squash" && in.MergeMethod != "rebase":
		return http.StatusUnprocessableEntity, shapes.Obj{"message": "Invalid request.\n\n" +
			fmt.Sprintf("%q is not a member of [\"merge\", \"squash\", \"rebase\"].", in.MergeMethod),
			"documentation_url": DocsURL}
	case !world.CanPush(s.PermissionOf(c.login)):
		return http.StatusForbidden, ErrorBody("Resource not accessible by integration")
	case s.MergeBlocked(c, pr):
		return http.StatusMethodNotAllowed, ErrorBody(world.UnknownRefusal)
	case in.SHA != "" && in.SHA != pr.HeadSHA:
		return http.StatusConflict, ErrorBody("Head branch was modified. Review and try the merge again.")
	case s.RefusesMerge(c, pr, in.MergeMethod, c.login):
		code, msg := s.MergeRefusal(c, pr, in.MergeMethod, c.login)
		return code, ErrorBody(msg)
	case c.repo.RefusedBy(pr.Base, true) != "":
		return http.StatusMethodNotAllowed, ErrorBody(world.RuleViolation(c.repo.RefusedBy(pr.Base, true)))
	case c.login == world.BotLogin && world.WorkflowFile(pr.Files) != "":
		return http.StatusForbidden, ErrorBody(world.WorkflowRefusal(world.WorkflowFile(pr.Files)))
	}
	s.RecordMerge(c.repo, pr)
	now := s.Clock()
	base := s.EnsureBranch(c.repo, pr.Base)
	message := mergeMessage(pr, in.MergeMethod, in.CommitTitle, in.CommitMessage)
	head := s.EnsureBranch(pr.HeadRepository(), pr.Head)
	files, _ := world.MergedFiles(pr) // a conflict was refused above
	base.Files = files
	// A merge commit has the head as its second parent; squash and rebase make commits on
	// the base alone (the fake makes one for a rebase too).
	parents := []string{base.Head}
	if in.MergeMethod == "merge" {
		parents = append(parents, head.Head)
	}
	// GitHub makes the commit and signs it; a squash is authored by the PR's author, a merge
	// by who merged.
	author := c.login
	if in.MergeMethod == "squash" {
		author = pr.Author
	}
	mc := s.NewCommit(c.repo, message, parents, base.Files, "merge", c.repo.FullName(), pr.Number, pr.HeadSHA, in.MergeMethod).Authored(author, true)
	c.repo.LogPush(base.Name, base.Head, mc.SHA, c.login)
	base.Head = mc.SHA
	pr.Merged, pr.State, pr.MergedAt, pr.ClosedAt, pr.UpdatedAt = true, "closed", now, now, now
	pr.MergedBy, pr.MergeMethod, pr.MergeCommitSHA = c.login, in.MergeMethod, mc.SHA
	s.CloseLinkedIssues(pr, now)
	return http.StatusOK, shapes.Obj{"sha": mc.SHA, "merged": true, "message": "Pull Request successfully merged"}
}

// mergeMessage is the message of the commit a merge makes: the title and message asked for,
// or GitHub's defaults — "Merge pull request #N from owner/branch" and the pull request's
// title for a merge commit, the title with " (#N)" for a squash.
func mergeMessage(pr *world.Issue, method, title, message string) string {
	if title == "" {
		title = fmt.Sprintf("Merge pull request #%d from %s/%s", pr.Number, pr.HeadRepository().Owner, pr.Head)
		if method == "squash" {
			title = fmt.Sprintf("%s (#%d)", pr.Title, pr.Number)
		}
	}
	if message == "" && method == "merge" {
		message = pr.Title
	}
	if message == "" {
		return title
	}
	return title + "\n\n" + message
}

// pullsListReviews: https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request
func pullsListReviews(s *Env, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, NotFound()
	}
	var out []any
	for _, rv := range pr.Reviews {
		out = append(out, s.ReviewJSON(c.repo, pr, rv, false))
	}
	return http.StatusOK, c.paginate(out)
}

// pullsListFiles: https://docs.github.com/rest/pulls/pulls#list-pull-requests-files
func pullsListFiles(s *Env, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, NotFound()
	}
	fn := c.repo.FullName()
	files := s.EnsureBranch(pr.HeadRepository(), pr.Head).Files
	var out []any
	for i, f := range pr.Files {
		if i == maxListedFiles {
			break // GitHub lists the first 3,000 files of a pull request only
		}
		sha := ""
		if bl := files[f]; bl != nil {
			sha = bl.OID
		}
		out = append(out, shapes.Obj{
			"sha": sha, "filename": f, "status": "modified", "additions": 10, "deletions": 2, "changes": 12,
			"blob_url":     fmt.Sprintf("%s/%s/blob/%s/%s", shapes.HTMLBase, fn, pr.HeadSHA, f),
			"raw_url":      fmt.Sprintf("%s/%s/raw/%s/%s", shapes.HTMLBase, fn, pr.HeadSHA, f),
			"contents_url": s.APIURL("/repos/%s/contents/%s?ref=%s", fn, f, pr.HeadSHA),
			"patch":        "@@ -1 +1 @@\n-old\n+new",
		})
	}
	return http.StatusOK, c.paginate(out)
}

// maxListedFiles is how many files GitHub lists for a pull request at most.
const maxListedFiles = 3000

// gitDeleteRef: https://docs.github.com/rest/git/refs#delete-a-reference (branches only). The
// documented 422 covers "an attempt was made to delete the default branch"; its message here is
// the one GitHub gives when it refuses to delete a branch ("Cannot delete this branch").
func gitDeleteRef(s *Env, c *restCtx) (int, any) {
	name, ok := strings.CutPrefix(c.params["ref"], "heads/")
	switch {
	case !ok || c.repo.Branches[name] == nil:
		return http.StatusUnprocessableEntity, ErrorBody("Reference does not exist")
	case name == c.repo.DefaultBranch:
		return http.StatusUnprocessableEntity, ErrorBody("Cannot delete this branch")
	}
	s.RemoveBranch(c.repo, name)
	return http.StatusNoContent, nil
}

// reposGet: https://docs.github.com/rest/repos/repos#get-a-repository
// A fork's carries its parent and the root of its network (source), as GitHub's does.
func reposGet(s *Env, c *restCtx) (int, any) {
	o := s.RepoJSON(c.repo)
	if p := c.repo.Parent; p != nil {
		root := p
		for root.Parent != nil {
			root = root.Parent
		}
		o["parent"], o["source"] = s.RepoJSON(p), s.RepoJSON(root)
	}
	return http.StatusOK, o
}

// roleNames maps a role to the legacy permission the endpoint reports.
var roleNames = map[string]string{"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read", "none": "none"}

// reposGetPermission: https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user
// Users the world does not know have no permission ("none").
func reposGetPermission(s *Env, c *restCtx) (int, any) {
	login := c.params["username"]
	role := s.PermissionOf(login)
	return http.StatusOK, shapes.Obj{"permission": roleNames[role], "role_name": role, "user": s.UserJSON(login)}
}

// reposPullsOfCommit: https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit
func reposPullsOfCommit(s *Env, c *restCtx) (int, any) {
	var out []any
	for _, pr := range world.PRsOfCommit(c.repo, c.params["commit_sha"]) {
		out = append(out, s.PRJSON(c.repo, pr))
	}
	return http.StatusOK, c.paginate(out)
}
