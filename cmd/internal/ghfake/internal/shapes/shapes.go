// Package shapes builds the JSON GitHub sends: the objects its REST API answers with and the
// webhook payloads that carry them, with the keys of GitHub's documented examples
// (response-examples.json, webhooks/). Every builder reads the world; its caller holds its Mu.
package shapes

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Shapes builds JSON of the world as served at URL.
type Shapes struct {
	*world.World
	// URL is the server's base URL, e.g. http://127.0.0.1:4321.
	URL string
}

// APIPrefix is where the REST API is served, as on GitHub Enterprise Server.
const APIPrefix = "/api/v3"

// HTMLBase is where GitHub's web pages are.
const HTMLBase = "https://github.com"

// TimeZero is the creation time of things the world has from the start (repositories, apps).
var TimeZero = time.Unix(1_700_000_000, 0)

// Obj is a JSON object.
type Obj = map[string]any

// APIURL is the REST URL of a path on this server.
func (s *Shapes) APIURL(format string, args ...any) string {
	return s.URL + APIPrefix + fmt.Sprintf(format, args...)
}

// TS formats a timestamp as GitHub does; the zero time is null.
func TS(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// IsBot reports whether a REST login is a bot's.
func IsBot(login string) bool { return strings.HasSuffix(login, "[bot]") }

// UserJSON is a simple-user object.
func (s *Shapes) UserJSON(login string) any {
	if login == "" {
		return nil
	}
	typ := "User"
	if IsBot(login) {
		typ = "Bot"
	}
	id := world.StableID(login)
	return Obj{
		"login": login, "id": id, "node_id": world.NodeID(typ, id), "type": typ, "site_admin": false,
		"avatar_url": "https://avatars.githubusercontent.com/u/" + fmt.Sprint(id), "gravatar_id": "",
		"url": s.APIURL("/users/%s", login), "html_url": HTMLBase + "/" + login,
		"followers_url":       s.APIURL("/users/%s/followers", login),
		"following_url":       s.APIURL("/users/%s/following{/other_user}", login),
		"gists_url":           s.APIURL("/users/%s/gists{/gist_id}", login),
		"starred_url":         s.APIURL("/users/%s/starred{/owner}{/repo}", login),
		"subscriptions_url":   s.APIURL("/users/%s/subscriptions", login),
		"organizations_url":   s.APIURL("/users/%s/orgs", login),
		"repos_url":           s.APIURL("/users/%s/repos", login),
		"events_url":          s.APIURL("/users/%s/events{/privacy}", login),
		"received_events_url": s.APIURL("/users/%s/received_events", login),
	}
}

// repoURLs are a repository's API URL templates, relative to its API URL.
var repoURLs = map[string]string{
	"archive_url": "/{archive_format}{/ref}", "assignees_url": "/assignees{/user}",
	"blobs_url": "/git/blobs{/sha}", "branches_url": "/branches{/branch}",
	"collaborators_url": "/collaborators{/collaborator}", "comments_url": "/comments{/number}",
	"commits_url": "/commits{/sha}", "compare_url": "/compare/{base}...{head}",
	"contents_url": "/contents/{+path}", "contributors_url": "/contributors",
	"deployments_url": "/deployments", "downloads_url": "/downloads", "events_url": "/events",
	"forks_url": "/forks", "git_commits_url": "/git/commits{/sha}", "git_refs_url": "/git/refs{/sha}",
	"git_tags_url": "/git/tags{/sha}", "hooks_url": "/hooks",
	"issue_comment_url": "/issues/comments{/number}", "issue_events_url": "/issues/events{/number}",
	"issues_url": "/issues{/number}", "keys_url": "/keys{/key_id}", "labels_url": "/labels{/name}",
	"languages_url": "/languages", "merges_url": "/merges", "milestones_url": "/milestones{/number}",
	"notifications_url": "/notifications{?since,all,participating}", "pulls_url": "/pulls{/number}",
	"releases_url": "/releases{/id}", "stargazers_url": "/stargazers", "statuses_url": "/statuses/{sha}",
	"subscribers_url": "/subscribers", "subscription_url": "/subscription", "tags_url": "/tags",
	"teams_url": "/teams", "trees_url": "/git/trees{/sha}",
}

func (s *Shapes) RepoJSON(r *world.Repo) Obj {
	fn := r.FullName()
	api := s.APIURL("/repos/%s", fn)
	nOpen := 0
	for _, is := range r.Issues {
		if is.State == "open" {
			nOpen++
		}
	}
	o := Obj{
		"id": r.ID, "node_id": world.NodeID("Repository", r.ID), "name": r.Name, "full_name": fn,
		"private": false, "owner": s.UserJSON(r.Owner), "html_url": HTMLBase + "/" + fn,
		"description": nil, "fork": r.Parent != nil, "url": api, "homepage": nil, "language": "Go",
		"default_branch": r.DefaultBranch, "visibility": "public", "archived": false,
		"disabled": false, "created_at": TS(TimeZero), "updated_at": TS(TimeZero), "pushed_at": TS(TimeZero),
		"git_url": "git://github.com/" + fn + ".git", "ssh_url": "git@github.com:" + fn + ".git",
		"clone_url": HTMLBase + "/" + fn + ".git", "svn_url": HTMLBase + "/" + fn, "mirror_url": nil,
		"size": 1, "stargazers_count": 0, "watchers_count": 0, "watchers": 0, "forks_count": 0,
		"forks": 0, "open_issues_count": nOpen, "open_issues": nOpen, "network_count": 0,
		"subscribers_count": 0, "has_issues": true, "has_projects": false, "has_wiki": false,
		"has_pages": false, "has_downloads": false, "has_discussions": false, "is_template": false,
		"license": nil, "topics": []any{}, "temp_clone_token": nil,
		"allow_merge_commit": r.AllowsMethod("merge"), "allow_squash_merge": r.AllowsMethod("squash"),
		"allow_rebase_merge": r.AllowsMethod("rebase"),
		"allow_auto_merge":   false, "delete_branch_on_merge": false, "allow_forking": true,
		"web_commit_signoff_required": false, "custom_properties": Obj{},
		"permissions": Obj{"admin": false, "maintain": false, "push": true, "triage": true, "pull": true},
	}
	for k, v := range repoURLs {
		o[k] = api + v
	}
	return o
}

// LabelJSON is a label object; its id and color are derived from the name.
func (s *Shapes) LabelJSON(r *world.Repo, name string) Obj {
	id := world.StableID(r.FullName() + "#" + name)
	return Obj{
		"id": id, "node_id": world.NodeID("Label", id), "url": s.APIURL("/repos/%s/labels/%s", r.FullName(), name),
		"name": name, "description": nil, "color": fmt.Sprintf("%06x", id%0xffffff), "default": false,
	}
}

func (s *Shapes) LabelsJSON(r *world.Repo, names []string) []any {
	out := []any{}
	for _, n := range names {
		out = append(out, s.LabelJSON(r, n))
	}
	return out
}

// Association is author_association: OWNER, COLLABORATOR (write or more), or NONE.
func (s *Shapes) Association(r *world.Repo, login string) string {
	switch {
	case login == r.Owner:
		return "OWNER"
	case world.CanPush(s.Users[login]):
		return "COLLABORATOR"
	case world.PermRank[s.Users[login]] > 0:
		return "CONTRIBUTOR"
	}
	return "NONE"
}

// ReactionsJSON is an empty reaction rollup.
func (s *Shapes) ReactionsJSON(url string) Obj {
	return Obj{"url": url + "/reactions", "total_count": 0, "+1": 0, "-1": 0, "laugh": 0,
		"hooray": 0, "confused": 0, "heart": 0, "rocket": 0, "eyes": 0}
}

// CommentJSON is an issue-comment object (REST and the issue_comment webhook).
func (s *Shapes) CommentJSON(r *world.Repo, c *world.Comment) Obj {
	fn := r.FullName()
	url := s.APIURL("/repos/%s/issues/comments/%d", fn, c.ID)
	return Obj{
		"id": c.ID, "node_id": world.NodeID("IssueComment", c.ID), "url": url,
		"html_url":  fmt.Sprintf("%s/%s/issues/%d#issuecomment-%d", HTMLBase, fn, c.Issue, c.ID),
		"issue_url": s.APIURL("/repos/%s/issues/%d", fn, c.Issue),
		"body":      c.Body, "user": s.UserJSON(c.Author),
		"created_at": TS(c.CreatedAt), "updated_at": TS(c.UpdatedAt),
		"author_association": s.Association(r, c.Author), "performed_via_github_app": nil,
		"reactions": s.ReactionsJSON(url), "minimized": nil, "pin": nil,
	}
}

// IssueJSON is an issue object; for a pull request it carries the pull_request link as GitHub's does.
func (s *Shapes) IssueJSON(r *world.Repo, is *world.Issue) Obj {
	fn := r.FullName()
	url := s.APIURL("/repos/%s/issues/%d", fn, is.Number)
	ncomments := 0
	for _, c := range r.Comments {
		if c.Issue == is.Number {
			ncomments++
		}
	}
	assignee, assignees := s.AssigneesJSON(is)
	o := Obj{
		"id": is.ID, "node_id": world.NodeID("Issue", is.ID), "url": url,
		"repository_url": s.APIURL("/repos/%s", fn), "labels_url": url + "/labels{/name}",
		"comments_url": url + "/comments", "events_url": url + "/events", "timeline_url": url + "/timeline",
		"html_url": fmt.Sprintf("%s/%s/issues/%d", HTMLBase, fn, is.Number),
		"number":   is.Number, "title": is.Title, "body": is.Body, "user": s.UserJSON(is.Author),
		"labels": s.LabelsJSON(r, is.Labels), "state": is.State, "state_reason": nil, "locked": false,
		"assignee": assignee, "assignees": assignees, "milestone": nil, "comments": ncomments,
		"created_at": TS(is.CreatedAt), "updated_at": TS(is.UpdatedAt), "closed_at": TS(is.ClosedAt),
		"author_association": s.Association(r, is.Author), "active_lock_reason": nil, "draft": is.Draft,
		"reactions": s.ReactionsJSON(url), "performed_via_github_app": nil, "closed_by": nil,
		"pinned_comment": nil,
	}
	if is.State == "closed" {
		o["state_reason"] = "completed"
	}
	if is.IsPR {
		o["html_url"] = fmt.Sprintf("%s/%s/pull/%d", HTMLBase, fn, is.Number)
		o["pull_request"] = Obj{
			"url":       s.APIURL("/repos/%s/pulls/%d", fn, is.Number),
			"html_url":  fmt.Sprintf("%s/%s/pull/%d", HTMLBase, fn, is.Number),
			"diff_url":  fmt.Sprintf("%s/%s/pull/%d.diff", HTMLBase, fn, is.Number),
			"patch_url": fmt.Sprintf("%s/%s/pull/%d.patch", HTMLBase, fn, is.Number),
			"merged_at": TS(is.MergedAt),
		}
	}
	return o
}

// BranchRefJSON is the head or base of a pull request.
func (s *Shapes) BranchRefJSON(r *world.Repo, ref, sha string) Obj {
	return Obj{"label": r.Owner + ":" + ref, "ref": ref, "sha": sha, "user": s.UserJSON(r.Owner),
		"repo": s.RepoJSON(r)}
}

// MergeableJSON maps the GraphQL mergeable state to REST's mergeable and mergeable_state
// (mergeStateStatus in lower case, Rules.MergeStateStatus).
func (s *Shapes) MergeableJSON(pr *world.Issue) (any, string) {
	switch {
	case pr.Merged || pr.State == "closed":
		return nil, "unknown"
	case pr.Draft:
		return true, "draft"
	case world.MergeableNow(pr) == "CONFLICTING":
		return false, "dirty"
	case pr.Mergeable == "UNKNOWN" || s.Computing(nil, pr):
		return nil, "unknown"
	}
	return true, strings.ToLower(s.MergeStateStatus(nil, pr, ""))
}

// PRJSON is a pull-request object (REST pulls/get and the pull_request webhooks).
func (s *Shapes) PRJSON(r *world.Repo, pr *world.Issue) Obj {
	fn := r.FullName()
	url := s.APIURL("/repos/%s/pulls/%d", fn, pr.Number)
	issueURL := s.APIURL("/repos/%s/issues/%d", fn, pr.Number)
	html := fmt.Sprintf("%s/%s/pull/%d", HTMLBase, fn, pr.Number)
	mergeable, mstate := s.MergeableJSON(pr)
	ncomments := 0
	for _, c := range r.Comments {
		if c.Issue == pr.Number {
			ncomments++
		}
	}
	assignee, assignees := s.AssigneesJSON(pr)
	var mergedBy any
	if pr.Merged {
		mergedBy = s.UserJSON(pr.MergedBy)
	}
	return Obj{
		"url": url, "id": pr.ID, "node_id": world.NodeID("PullRequest", pr.ID), "html_url": html,
		"diff_url": html + ".diff", "patch_url": html + ".patch", "issue_url": issueURL,
		"commits_url": url + "/commits", "review_comments_url": url + "/comments",
		"review_comment_url": s.APIURL("/repos/%s/pulls/comments{/number}", fn),
		"comments_url":       issueURL + "/comments",
		"statuses_url":       s.APIURL("/repos/%s/statuses/%s", fn, pr.HeadSHA),
		"number":             pr.Number, "state": pr.State, "locked": false, "title": pr.Title,
		"user": s.UserJSON(pr.Author), "body": pr.Body, "labels": s.LabelsJSON(r, pr.Labels),
		"milestone": nil, "active_lock_reason": nil,
		"created_at": TS(pr.CreatedAt), "updated_at": TS(pr.UpdatedAt),
		"closed_at": TS(pr.ClosedAt), "merged_at": TS(pr.MergedAt),
		"merge_commit_sha": NilIfEmpty(pr.MergeCommitSHA), "assignee": assignee, "assignees": assignees,
		"requested_reviewers": s.RequestedJSON(pr, false), "requested_teams": s.RequestedJSON(pr, true),
		"head": s.BranchRefJSON(pr.HeadRepository(), pr.Head, pr.HeadSHA), "base": s.BranchRefJSON(r, pr.Base, pr.BaseSHA),
		"_links": Obj{
			"self": Obj{"href": url}, "html": Obj{"href": html}, "issue": Obj{"href": issueURL},
			"comments": Obj{"href": issueURL + "/comments"}, "review_comments": Obj{"href": url + "/comments"},
			"review_comment": Obj{"href": s.APIURL("/repos/%s/pulls/comments{/number}", fn)},
			"commits":        Obj{"href": url + "/commits"},
			"statuses":       Obj{"href": s.APIURL("/repos/%s/statuses/%s", fn, pr.HeadSHA)},
		},
		"author_association": s.Association(r, pr.Author), "auto_merge": nil, "draft": pr.Draft,
		"merged": pr.Merged, "mergeable": mergeable, "rebaseable": mergeable, "mergeable_state": mstate,
		"merged_by": mergedBy, "comments": ncomments, "review_comments": 0,
		"maintainer_can_modify": pr.CrossRepo() && !pr.NoMaintainerEdits, "commits": len(pr.Commits),
		"additions": 10 * len(pr.Files), "deletions": 2 * len(pr.Files), "changed_files": len(pr.Files),
	}
}

// ReviewJSON is a pull-request review object (REST and the pull_request_review webhook); state is
// upper case in REST and lower case in webhooks, as GitHub sends it.
func (s *Shapes) ReviewJSON(r *world.Repo, pr *world.Issue, rv *world.Review, webhook bool) Obj {
	fn := r.FullName()
	html := fmt.Sprintf("%s/%s/pull/%d#pullrequestreview-%d", HTMLBase, fn, pr.Number, rv.ID)
	prURL := s.APIURL("/repos/%s/pulls/%d", fn, pr.Number)
	state := rv.State
	if webhook {
		state = strings.ToLower(state)
	}
	return Obj{
		"id": rv.ID, "node_id": world.NodeID("PullRequestReview", rv.ID), "user": s.UserJSON(rv.User),
		"body": rv.Body, "state": state, "html_url": html, "pull_request_url": prURL,
		"_links":       Obj{"html": Obj{"href": html}, "pull_request": Obj{"href": prURL}},
		"submitted_at": TS(rv.SubmittedAt), "commit_id": rv.CommitID,
		"author_association": s.Association(r, rv.User),
	}
}

func NilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// RequestedJSON lists the pull request's requested reviewers: users, or teams.
func (s *Shapes) RequestedJSON(pr *world.Issue, teams bool) []any {
	out := []any{}
	for _, r := range pr.Requested {
		slug, isTeam := strings.CutPrefix(r, "team:")
		switch {
		case teams && isTeam:
			id := world.StableID("team:" + slug)
			out = append(out, Obj{"id": id, "node_id": world.NodeID("Team", id), "slug": slug, "name": slug})
		case !teams && !isTeam:
			out = append(out, s.UserJSON(r))
		}
	}
	return out
}

// AssigneesJSON renders the assignee and assignees of an issue or pull request.
func (s *Shapes) AssigneesJSON(is *world.Issue) (any, []any) {
	out := make([]any, 0, len(is.Assignees))
	for _, l := range is.Assignees {
		out = append(out, s.UserJSON(l))
	}
	if len(out) == 0 {
		return nil, out
	}
	return out[0], out
}

// OptString is *p, or nil (GraphQL's null) when p is nil.
func OptString(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
