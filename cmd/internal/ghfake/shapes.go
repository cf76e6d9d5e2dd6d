package ghfake

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The builders below make the JSON objects GitHub's REST API and webhooks share, with the keys of
// GitHub's documented examples (response-examples.json, webhooks/). The caller holds s.mu.

const htmlBase = "https://github.com"

// timeZero is the creation time of things the world has from the start (repositories, apps).
var timeZero = time.Unix(1_700_000_000, 0)

// obj is a JSON object.
type obj = map[string]any

// apiURL is the REST URL of a path on this server.
func (s *Server) apiURL(format string, args ...any) string {
	return s.URL + restPrefix + fmt.Sprintf(format, args...)
}

// ts formats a timestamp as GitHub does; the zero time is null.
func ts(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// isBot reports whether a REST login is a bot's.
func isBot(login string) bool { return strings.HasSuffix(login, "[bot]") }

// userJSON is a simple-user object.
func (s *Server) userJSON(login string) any {
	if login == "" {
		return nil
	}
	typ := "User"
	if isBot(login) {
		typ = "Bot"
	}
	id := world.StableID(login)
	return obj{
		"login": login, "id": id, "node_id": world.NodeID(typ, id), "type": typ, "site_admin": false,
		"avatar_url": "https://avatars.githubusercontent.com/u/" + fmt.Sprint(id), "gravatar_id": "",
		"url": s.apiURL("/users/%s", login), "html_url": htmlBase + "/" + login,
		"followers_url":       s.apiURL("/users/%s/followers", login),
		"following_url":       s.apiURL("/users/%s/following{/other_user}", login),
		"gists_url":           s.apiURL("/users/%s/gists{/gist_id}", login),
		"starred_url":         s.apiURL("/users/%s/starred{/owner}{/repo}", login),
		"subscriptions_url":   s.apiURL("/users/%s/subscriptions", login),
		"organizations_url":   s.apiURL("/users/%s/orgs", login),
		"repos_url":           s.apiURL("/users/%s/repos", login),
		"events_url":          s.apiURL("/users/%s/events{/privacy}", login),
		"received_events_url": s.apiURL("/users/%s/received_events", login),
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

func (s *Server) repoJSON(r *repo) obj {
	fn := r.FullName()
	api := s.apiURL("/repos/%s", fn)
	nOpen := 0
	for _, is := range r.Issues {
		if is.State == "open" {
			nOpen++
		}
	}
	o := obj{
		"id": r.ID, "node_id": world.NodeID("Repository", r.ID), "name": r.Name, "full_name": fn,
		"private": false, "owner": s.userJSON(r.Owner), "html_url": htmlBase + "/" + fn,
		"description": nil, "fork": r.Parent != nil, "url": api, "homepage": nil, "language": "Go",
		"default_branch": r.DefaultBranch, "visibility": "public", "archived": false,
		"disabled": false, "created_at": ts(timeZero), "updated_at": ts(timeZero), "pushed_at": ts(timeZero),
		"git_url": "git://github.com/" + fn + ".git", "ssh_url": "git@github.com:" + fn + ".git",
		"clone_url": htmlBase + "/" + fn + ".git", "svn_url": htmlBase + "/" + fn, "mirror_url": nil,
		"size": 1, "stargazers_count": 0, "watchers_count": 0, "watchers": 0, "forks_count": 0,
		"forks": 0, "open_issues_count": nOpen, "open_issues": nOpen, "network_count": 0,
		"subscribers_count": 0, "has_issues": true, "has_projects": false, "has_wiki": false,
		"has_pages": false, "has_downloads": false, "has_discussions": false, "is_template": false,
		"license": nil, "topics": []any{}, "temp_clone_token": nil,
		"allow_merge_commit": r.AllowsMethod("merge"), "allow_squash_merge": r.AllowsMethod("squash"),
		"allow_rebase_merge": r.AllowsMethod("rebase"),
		"allow_auto_merge":   false, "delete_branch_on_merge": false, "allow_forking": true,
		"web_commit_signoff_required": false, "custom_properties": obj{},
		"permissions": obj{"admin": false, "maintain": false, "push": true, "triage": true, "pull": true},
	}
	for k, v := range repoURLs {
		o[k] = api + v
	}
	return o
}

// labelJSON is a label object; its id and color are derived from the name.
func (s *Server) labelJSON(r *repo, name string) obj {
	id := world.StableID(r.FullName() + "#" + name)
	return obj{
		"id": id, "node_id": world.NodeID("Label", id), "url": s.apiURL("/repos/%s/labels/%s", r.FullName(), name),
		"name": name, "description": nil, "color": fmt.Sprintf("%06x", id%0xffffff), "default": false,
	}
}

func (s *Server) labelsJSON(r *repo, names []string) []any {
	out := []any{}
	for _, n := range names {
		out = append(out, s.labelJSON(r, n))
	}
	return out
}

// association is author_association: OWNER, COLLABORATOR (write or more), or NONE.
func (s *Server) association(r *repo, login string) string {
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

// reactionsJSON is an empty reaction rollup.
func (s *Server) reactionsJSON(url string) obj {
	return obj{"url": url + "/reactions", "total_count": 0, "+1": 0, "-1": 0, "laugh": 0,
		"hooray": 0, "confused": 0, "heart": 0, "rocket": 0, "eyes": 0}
}

// commentJSON is an issue-comment object (REST and the issue_comment webhook).
func (s *Server) commentJSON(r *repo, c *comment) obj {
	fn := r.FullName()
	url := s.apiURL("/repos/%s/issues/comments/%d", fn, c.ID)
	return obj{
		"id": c.ID, "node_id": world.NodeID("IssueComment", c.ID), "url": url,
		"html_url":  fmt.Sprintf("%s/%s/issues/%d#issuecomment-%d", htmlBase, fn, c.Issue, c.ID),
		"issue_url": s.apiURL("/repos/%s/issues/%d", fn, c.Issue),
		"body":      c.Body, "user": s.userJSON(c.Author),
		"created_at": ts(c.CreatedAt), "updated_at": ts(c.UpdatedAt),
		"author_association": s.association(r, c.Author), "performed_via_github_app": nil,
		"reactions": s.reactionsJSON(url), "minimized": nil, "pin": nil,
	}
}

// issueJSON is an issue object; for a pull request it carries the pull_request link as GitHub's does.
func (s *Server) issueJSON(r *repo, is *issue) obj {
	fn := r.FullName()
	url := s.apiURL("/repos/%s/issues/%d", fn, is.Number)
	ncomments := 0
	for _, c := range r.Comments {
		if c.Issue == is.Number {
			ncomments++
		}
	}
	assignee, assignees := s.assigneesJSON(is)
	o := obj{
		"id": is.ID, "node_id": world.NodeID("Issue", is.ID), "url": url,
		"repository_url": s.apiURL("/repos/%s", fn), "labels_url": url + "/labels{/name}",
		"comments_url": url + "/comments", "events_url": url + "/events", "timeline_url": url + "/timeline",
		"html_url": fmt.Sprintf("%s/%s/issues/%d", htmlBase, fn, is.Number),
		"number":   is.Number, "title": is.Title, "body": is.Body, "user": s.userJSON(is.Author),
		"labels": s.labelsJSON(r, is.Labels), "state": is.State, "state_reason": nil, "locked": false,
		"assignee": assignee, "assignees": assignees, "milestone": nil, "comments": ncomments,
		"created_at": ts(is.CreatedAt), "updated_at": ts(is.UpdatedAt), "closed_at": ts(is.ClosedAt),
		"author_association": s.association(r, is.Author), "active_lock_reason": nil, "draft": is.Draft,
		"reactions": s.reactionsJSON(url), "performed_via_github_app": nil, "closed_by": nil,
		"pinned_comment": nil,
	}
	if is.State == "closed" {
		o["state_reason"] = "completed"
	}
	if is.IsPR {
		o["html_url"] = fmt.Sprintf("%s/%s/pull/%d", htmlBase, fn, is.Number)
		o["pull_request"] = obj{
			"url":       s.apiURL("/repos/%s/pulls/%d", fn, is.Number),
			"html_url":  fmt.Sprintf("%s/%s/pull/%d", htmlBase, fn, is.Number),
			"diff_url":  fmt.Sprintf("%s/%s/pull/%d.diff", htmlBase, fn, is.Number),
			"patch_url": fmt.Sprintf("%s/%s/pull/%d.patch", htmlBase, fn, is.Number),
			"merged_at": ts(is.MergedAt),
		}
	}
	return o
}

// branchRefJSON is the head or base of a pull request.
func (s *Server) branchRefJSON(r *repo, ref, sha string) obj {
	return obj{"label": r.Owner + ":" + ref, "ref": ref, "sha": sha, "user": s.userJSON(r.Owner),
		"repo": s.repoJSON(r)}
}

// mergeableJSON maps the GraphQL mergeable state to REST's mergeable and mergeable_state
// (mergeStateStatus in lower case, mergeability.go).
func (s *Server) mergeableJSON(pr *issue) (any, string) {
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

// prJSON is a pull-request object (REST pulls/get and the pull_request webhooks).
func (s *Server) prJSON(r *repo, pr *issue) obj {
	fn := r.FullName()
	url := s.apiURL("/repos/%s/pulls/%d", fn, pr.Number)
	issueURL := s.apiURL("/repos/%s/issues/%d", fn, pr.Number)
	html := fmt.Sprintf("%s/%s/pull/%d", htmlBase, fn, pr.Number)
	mergeable, mstate := s.mergeableJSON(pr)
	ncomments := 0
	for _, c := range r.Comments {
		if c.Issue == pr.Number {
			ncomments++
		}
	}
	assignee, assignees := s.assigneesJSON(pr)
	var mergedBy any
	if pr.Merged {
		mergedBy = s.userJSON(pr.MergedBy)
	}
	return obj{
		"url": url, "id": pr.ID, "node_id": world.NodeID("PullRequest", pr.ID), "html_url": html,
		"diff_url": html + ".diff", "patch_url": html + ".patch", "issue_url": issueURL,
		"commits_url": url + "/commits", "review_comments_url": url + "/comments",
		"review_comment_url": s.apiURL("/repos/%s/pulls/comments{/number}", fn),
		"comments_url":       issueURL + "/comments",
		"statuses_url":       s.apiURL("/repos/%s/statuses/%s", fn, pr.HeadSHA),
		"number":             pr.Number, "state": pr.State, "locked": false, "title": pr.Title,
		"user": s.userJSON(pr.Author), "body": pr.Body, "labels": s.labelsJSON(r, pr.Labels),
		"milestone": nil, "active_lock_reason": nil,
		"created_at": ts(pr.CreatedAt), "updated_at": ts(pr.UpdatedAt),
		"closed_at": ts(pr.ClosedAt), "merged_at": ts(pr.MergedAt),
		"merge_commit_sha": nilIfEmpty(pr.MergeCommitSHA), "assignee": assignee, "assignees": assignees,
		"requested_reviewers": s.requestedJSON(pr, false), "requested_teams": s.requestedJSON(pr, true),
		"head": s.branchRefJSON(pr.HeadRepository(), pr.Head, pr.HeadSHA), "base": s.branchRefJSON(r, pr.Base, pr.BaseSHA),
		"_links": obj{
			"self": obj{"href": url}, "html": obj{"href": html}, "issue": obj{"href": issueURL},
			"comments": obj{"href": issueURL + "/comments"}, "review_comments": obj{"href": url + "/comments"},
			"review_comment": obj{"href": s.apiURL("/repos/%s/pulls/comments{/number}", fn)},
			"commits":        obj{"href": url + "/commits"},
			"statuses":       obj{"href": s.apiURL("/repos/%s/statuses/%s", fn, pr.HeadSHA)},
		},
		"author_association": s.association(r, pr.Author), "auto_merge": nil, "draft": pr.Draft,
		"merged": pr.Merged, "mergeable": mergeable, "rebaseable": mergeable, "mergeable_state": mstate,
		"merged_by": mergedBy, "comments": ncomments, "review_comments": 0,
		"maintainer_can_modify": false, "commits": len(pr.Commits),
		"additions": 10 * len(pr.Files), "deletions": 2 * len(pr.Files), "changed_files": len(pr.Files),
	}
}

// reviewJSON is a pull-request review object (REST and the pull_request_review webhook); state is
// upper case in REST and lower case in webhooks, as GitHub sends it.
func (s *Server) reviewJSON(r *repo, pr *issue, rv *review, webhook bool) obj {
	fn := r.FullName()
	html := fmt.Sprintf("%s/%s/pull/%d#pullrequestreview-%d", htmlBase, fn, pr.Number, rv.ID)
	prURL := s.apiURL("/repos/%s/pulls/%d", fn, pr.Number)
	state := rv.State
	if webhook {
		state = strings.ToLower(state)
	}
	return obj{
		"id": rv.ID, "node_id": world.NodeID("PullRequestReview", rv.ID), "user": s.userJSON(rv.User),
		"body": rv.Body, "state": state, "html_url": html, "pull_request_url": prURL,
		"_links":       obj{"html": obj{"href": html}, "pull_request": obj{"href": prURL}},
		"submitted_at": ts(rv.SubmittedAt), "commit_id": rv.CommitID,
		"author_association": s.association(r, rv.User),
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// requestedJSON lists the pull request's requested reviewers: users, or teams.
func (s *Server) requestedJSON(pr *issue, teams bool) []any {
	out := []any{}
	for _, r := range pr.Requested {
		slug, isTeam := strings.CutPrefix(r, "team:")
		switch {
		case teams && isTeam:
			id := world.StableID("team:" + slug)
			out = append(out, obj{"id": id, "node_id": world.NodeID("Team", id), "slug": slug, "name": slug})
		case !teams && !isTeam:
			out = append(out, s.userJSON(r))
		}
	}
	return out
}
