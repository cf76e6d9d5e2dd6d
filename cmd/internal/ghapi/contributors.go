package ghapi

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/shurcooL/githubv4"
)

// Who wrote a pull request: the GitHub users its commits name as their authors and
// committers. They do not approve it (engine.Facts.Contributed). GitHub's web-flow, the
// committer of commits made through the web or the API, wrote nothing; nor did whoever
// pressed "Update branch": a merge commit (two parents) that GitHub itself committed and
// signed brings in the base branch, not a change of theirs.

// contributorsConn is a page of a pull request's commits, newest last, with the users
// behind their authors and committers (null for an email GitHub does not know).
type contributorsConn struct {
	PageInfo pageBackward
	Nodes    []contributorNode
}

type contributorNode struct {
	Commit struct {
		Author    *gitActorNode
		Committer *gitActorNode
		Parents   struct{ TotalCount int } `graphql:"parents(first: 1)"`
		Signature *signatureNode
	}
}

type signatureNode struct {
	IsValid           bool
	WasSignedByGitHub bool
}

type gitActorNode struct {
	Name  string
	Email string
	User  *struct{ Login string }
}

type contributorsPage inRepo[struct {
	PullRequest *struct {
		Contributors contributorsConn `graphql:"contributors: commits(last: 100, before: $cursor)"`
	} `graphql:"pullRequest(number: $number)"`
}]

// readContributors completes the commits of pr that the first read did not reach (a pull
// request of more than 100 commits).
func (c *Client) readContributors(ctx context.Context, number int, pr *prFields) error {
	for page := 0; pr.Contributors.PageInfo.HasPreviousPage; page++ {
		var q contributorsPage
		vars := map[string]any{
			"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
			"number": githubv4.Int(number), "cursor": githubv4.String(pr.Contributors.PageInfo.StartCursor),
		}
		if err := c.more(ctx, &q, vars, page, "commits", number); err != nil {
			return err
		}
		if q.Repository.PullRequest == nil {
			break
		}
		got := q.Repository.PullRequest.Contributors
		pr.Contributors.Nodes = append(got.Nodes, pr.Contributors.Nodes...)
		pr.Contributors.PageInfo = got.PageInfo
	}
	return nil
}

// contributors lists the users behind the authors and committers of conn's commits, each
// once, web-flow left out.
func contributors(conn contributorsConn) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range conn.Nodes {
		if updateMerge(n.Commit.Parents.TotalCount, n.Commit.Committer, n.Commit.Signature != nil && n.Commit.Signature.IsValid && n.Commit.Signature.WasSignedByGitHub) {
			continue
		}
		for _, a := range []*gitActorNode{n.Commit.Author, n.Commit.Committer} {
			if a == nil || a.User == nil || a.User.Login == "" || strings.EqualFold(a.User.Login, "web-flow") {
				continue
			}
			if k := strings.ToLower(a.User.Login); !seen[k] {
				seen[k] = true
				out = append(out, a.User.Login)
			}
		}
	}
	return out
}

// coAuthors are the authors of conn's commits other than author (the pull request's),
// as git's Co-authored-by trailer names them ("Name <email>"), each once, oldest first;
// GitHub's "Update branch" merges and authors without an e-mail address left out.
func coAuthors(conn contributorsConn, author string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range conn.Nodes {
		a := n.Commit.Author
		if a == nil || a.Email == "" || updateMerge(n.Commit.Parents.TotalCount, n.Commit.Committer, n.Commit.Signature != nil && n.Commit.Signature.IsValid && n.Commit.Signature.WasSignedByGitHub) {
			continue
		}
		if a.User != nil && strings.EqualFold(a.User.Login, author) {
			continue
		}
		if k := strings.ToLower(a.Email); !seen[k] {
			seen[k] = true
			out = append(out, fmt.Sprintf("%s <%s>", cmp.Or(a.Name, a.Email), a.Email))
		}
	}
	return out
}

// updateMerge reports whether a commit is GitHub's "Update branch" merge: two parents,
// committed by web-flow and signed by GitHub (nobody else can make that signature).
func updateMerge(parents int, committer *gitActorNode, signedByGitHub bool) bool {
	return parents >= 2 && signedByGitHub && committer != nil && committer.User != nil && strings.EqualFold(committer.User.Login, "web-flow")
}
