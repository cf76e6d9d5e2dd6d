package act

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/merge3"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// GitHub's "Update branch" is a merge of the base branch's head into the pull request's head
// branch, as git merges: what the base changed since the head was cut is applied to the
// head's files, so a base change to a file the pull request never touched reaches the pull
// request (and stays on the base when it merges). On a path both changed differently the
// head's side stays: the REST call refuses a conflicting pull request before it gets here.
//
// GitHub refuses the Actions GITHUB_TOKEN — the fake's BotLogin — two such updates: of a
// branch in a fork (its token reaches only the repository it runs in), and of one the merge
// would bring a base change under .github/workflows/ into (it never has the `workflows`
// permission).

// updatedFiles are the head's files with what the base changed since their merge base.
// The caller holds Mu.
func updatedFiles(pr *world.Issue, head, base *world.Branch) map[string]*world.Blob {
	mb := pr.Repo.MergeBase(base.Head, head.Head)
	files, _ := merge3.ThreeWay(pr.Repo.FilesAt(mb), head.Files, base.Files, world.BlobKey)
	return files
}

// broughtWorkflow is the first (sorted) file under .github/workflows/ that updating pr's
// branch would change, or "". The caller holds Mu.
func (s *PRs) broughtWorkflow(r *world.Repo, pr *world.Issue) string {
	head := s.EnsureBranch(pr.HeadRepository(), pr.Head)
	files := updatedFiles(pr, head, s.EnsureBranch(r, pr.Base))
	var changed []string
	for p := range files {
		if world.BlobKey(files[p]) != world.BlobKey(head.Files[p]) {
			changed = append(changed, p)
		}
	}
	for p := range head.Files {
		if _, kept := files[p]; !kept {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	for _, p := range changed {
		if strings.HasPrefix(p, ".github/workflows/") {
			return p
		}
	}
	return ""
}

// UpdateRefusal is GitHub's 403 message refusing login's update of pr's branch, or "".
// The caller holds Mu.
func (s *PRs) UpdateRefusal(r *world.Repo, pr *world.Issue, login string) string {
	if login != world.BotLogin {
		return ""
	}
	if pr.CrossRepo() {
		return NotAccessibleMessage
	}
	if f := s.broughtWorkflow(r, pr); f != "" {
		return world.WorkflowRefusal(f)
	}
	return ""
}

const NotAccessibleMessage = "Resource not accessible by integration"

// NoHeadPermission is GitHub's refusal of an update of a fork's branch whose author does not
// allow edits by maintainers.
const NoHeadPermission = "user doesn't have permission to update head repository"

// UpdateBranchOf is UpdateBranch with Mu held (the REST route's too).
func (s *PRs) UpdateBranchOf(r *world.Repo, pr *world.Issue, user string) shapes.Event {
	number := pr.Number
	before := pr.HeadSHA
	head := s.EnsureBranch(pr.HeadRepository(), pr.Head)
	base := s.EnsureBranch(r, pr.Base)
	files := updatedFiles(pr, head, base)
	head.Files = files
	msg := fmt.Sprintf("Merge branch '%s' into %s", pr.Base, pr.Head)
	c := s.NewCommit(r, msg, []string{head.Head, base.Head}, files, r.FullName(), number, "update", len(pr.Commits)).Authored(user, true)
	c.UpdatedBy = user
	pr.HeadSHA = c.SHA
	pr.Commits = append(pr.Commits, c.SHA)
	pr.UpdatedAt = s.Clock()
	head.Head = c.SHA
	return s.PREvent(r, pr, "synchronize", user, shapes.Obj{"before": before, "after": c.SHA})
}

// RebaseBranchOf replays pr's own commits (merges left out, as git rebase leaves them) on
// its base's head, each made anew with its author kept and committed through GitHub: the
// head's history is rewritten, and the head is the last of them. The caller holds Mu and
// has checked UpdateCheck.
func (s *PRs) RebaseBranchOf(r *world.Repo, pr *world.Issue, user string) shapes.Event {
	before := pr.HeadSHA
	head := s.EnsureBranch(pr.HeadRepository(), pr.Head)
	base := s.EnsureBranch(r, pr.Base)
	mb := r.MergeBase(base.Head, head.Head)
	inBase := r.Ancestors(base.Head)
	parent, files := base.Head, base.Files
	var rebased []string
	for i, sha := range pr.Commits {
		c := r.Commits[sha]
		if c == nil || inBase[sha] || len(c.Parents) > 1 {
			continue
		}
		files, _ = merge3.ThreeWay(r.FilesAt(mb), c.Files, base.Files, world.BlobKey)
		nc := s.NewCommit(r, c.Message, []string{parent}, files, r.FullName(), pr.Number, "rebase", base.Head, i).Authored(user, true)
		nc.Author = c.Author
		parent = nc.SHA
		rebased = append(rebased, nc.SHA)
	}
	if len(rebased) > 0 { // none left to replay: the head is the base's own commit, not GitHub's update
		r.Commits[parent].UpdatedBy = user
	}
	pr.Commits, pr.HeadSHA, pr.UpdatedAt = rebased, parent, s.Clock()
	head.Head, head.Files = parent, files
	return s.PREvent(r, pr, "synchronize", user, shapes.Obj{"before": before, "after": parent})
}

// UpdateCheck is GitHub's refusal of login's update of pr's branch (by merge or rebase),
// expecting its head at expected ("" for any): the HTTP status REST answers and the message
// both APIs give; 0 when GitHub updates it. The caller holds Mu.
func (s *PRs) UpdateCheck(r *world.Repo, pr *world.Issue, login, expected string) (int, string) {
	switch {
	case !world.CanPush(s.PermissionOf(login)):
		return http.StatusForbidden, NotAccessibleMessage
	case pr.State != "open":
		return http.StatusUnprocessableEntity, "Pull request is not open."
	case pr.CrossRepo() && pr.NoMaintainerEdits && login != pr.HeadRepository().Owner:
		return http.StatusUnprocessableEntity, NoHeadPermission
	case expected != "" && expected != pr.HeadSHA:
		return http.StatusUnprocessableEntity, "expected head sha didn't match current head ref."
	case !s.Behind(pr):
		return http.StatusUnprocessableEntity, "There are no new commits on the base branch."
	case world.MergeableNow(pr) == "CONFLICTING":
		return http.StatusUnprocessableEntity, "merge conflict between base and head"
	}
	if msg := s.UpdateRefusal(r, pr, login); msg != "" {
		return http.StatusForbidden, msg
	}
	return 0, ""
}

// HeadUpdatedBy is who had GitHub update pull request number's branch to its current head
// (the update-branch call or button), "" when its head is no such merge.
func (s *Views) HeadUpdatedBy(repoName string, number int) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	if c := r.Commits[pr.HeadSHA]; c != nil {
		return c.UpdatedBy
	}
	return ""
}

// UpToDate reports whether pull request number's head contains its base branch's head.
func (s *Views) UpToDate(repoName string, number int) bool {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return !s.Behind(s.MustPR(s.MustRepo(repoName), number))
}
