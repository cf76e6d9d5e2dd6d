package ghfake

import (
	"encoding/json"
	"fmt"
)

// Webhook payloads follow GitHub's real deliveries (testdata/github/webhooks). Deliberately omitted
// top-level keys: "installation" (Actions delivers events to workflows without an app installation)
// and "organization" (the fake has no organizations). TestPayloadShapes holds the rest to the real
// examples. The caller of every builder holds s.mu.

// event wraps a payload with repository and sender.
func (s *Server) event(r *repo, name, action, sender string, p obj) Event {
	p["repository"] = s.repoJSON(r)
	p["sender"] = s.userJSON(sender)
	b, err := json.Marshal(p)
	if err != nil {
		panic(fmt.Sprintf("ghfake: encoding %s payload: %v", name, err))
	}
	return Event{Name: name, Action: action, Payload: b}
}

// prEvent is a pull_request event; extra adds keys such as label, before and after.
func (s *Server) prEvent(r *repo, pr *issue, action, sender string, extra obj) Event {
	p := obj{"action": action, "number": pr.number, "pull_request": s.prJSON(r, pr)}
	for k, v := range extra {
		p[k] = v
	}
	return s.event(r, "pull_request", action, sender, p)
}

// issuesEvent is an issues event.
func (s *Server) issuesEvent(r *repo, is *issue, action, sender string, extra obj) Event {
	p := obj{"action": action, "issue": s.issueJSON(r, is)}
	for k, v := range extra {
		p[k] = v
	}
	return s.event(r, "issues", action, sender, p)
}

// reviewEvent is a pull_request_review event.
func (s *Server) reviewEvent(r *repo, pr *issue, rv *review, action, sender string) Event {
	p := obj{"action": action, "review": s.reviewJSON(r, pr, rv, true), "pull_request": s.prJSON(r, pr)}
	return s.event(r, "pull_request_review", action, sender, p)
}

// prRefs is pull_requests as check suites and workflow runs carry them: empty for a pull request
// from a fork ("When the check suite's head_branch is in a forked repository it will be null and
// the pull_requests array will be empty", GitHub's check_suite webhook reference).
func (s *Server) prRefs(r *repo, pr *issue) []any {
	if pr.crossRepo() {
		return []any{}
	}
	repoRef := obj{"id": r.id, "url": s.apiURL("/repos/%s", r.fullName()), "name": r.name}
	return []any{obj{
		"id": pr.id, "number": pr.number, "url": s.apiURL("/repos/%s/pulls/%d", r.fullName(), pr.number),
		"head": obj{"ref": pr.head, "sha": pr.headSHA, "repo": repoRef},
		"base": obj{"ref": pr.base, "sha": pr.baseSHA, "repo": repoRef},
	}}
}

// headCommitJSON is the head_commit of suites and runs.
func (s *Server) headCommitJSON(r *repo, c *commit, author string) obj {
	who := obj{"name": author, "email": author + "@users.noreply.github.com"}
	return obj{"id": c.sha, "tree_id": fakeSHA("tree", c.sha), "message": c.message,
		"timestamp": ts(c.date), "author": who, "committer": who}
}

// appID is the id of the GitHub App slug.
func appID(slug string) int64 { return stableID("app:" + slug) }

// workflowID is the id of the Actions workflow name of repository r.
func workflowID(r *repo, name string) int64 { return stableID(r.fullName() + ":workflow:" + name) }

// appJSON is a GitHub App object.
func (s *Server) appJSON(slug string) obj {
	id := appID(slug)
	return obj{"id": id, "slug": slug, "node_id": nodeID("App", id), "name": slug,
		"owner": s.userJSON(slug), "description": "", "external_url": "https://" + slug + ".example",
		"html_url": htmlBase + "/apps/" + slug, "created_at": ts(timeZero), "updated_at": ts(timeZero),
		"permissions": obj{"checks": "write", "metadata": "read"}, "events": []any{}}
}

// workflowRunEvent is workflow_run/completed for the run of an Actions workflow that is suite cs.
func (s *Server) workflowRunEvent(r *repo, pr *issue, cs *checkSuite) Event {
	fn := r.fullName()
	c := r.commits[pr.headSHA]
	runs := suiteRuns(c, cs)
	done := runs[len(runs)-1].completedAt
	wfID := workflowID(r, cs.workflow)
	path := ".github/workflows/" + cs.workflow + ".yml"
	url := s.apiURL("/repos/%s/actions/runs/%d", fn, cs.runID)
	workflow := obj{"id": wfID, "node_id": nodeID("Workflow", wfID), "name": cs.workflow, "path": path,
		"state": "active", "url": s.apiURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"html_url":   fmt.Sprintf("%s/%s/blob/%s/%s", htmlBase, fn, r.defaultBranch, path),
		"badge_url":  fmt.Sprintf("%s/%s/workflows/%s/badge.svg", htmlBase, fn, cs.workflow),
		"created_at": ts(timeZero), "updated_at": ts(timeZero)}
	wr := obj{
		"id": cs.runID, "node_id": nodeID("WorkflowRun", cs.runID), "name": cs.workflow,
		"display_title": pr.title, "path": path, "head_branch": pr.head, "head_sha": pr.headSHA,
		"run_number": cs.runID % 1000, "run_attempt": 1, "event": "pull_request", "status": "completed",
		"conclusion": suiteConclusion(runs), "workflow_id": wfID, "check_suite_id": cs.id,
		"check_suite_node_id": nodeID("CheckSuite", cs.id), "url": url,
		"html_url":      fmt.Sprintf("%s/%s/actions/runs/%d", htmlBase, fn, cs.runID),
		"pull_requests": s.prRefs(r, pr), "created_at": ts(done),
		"updated_at": ts(done), "run_started_at": ts(done),
		"actor": s.userJSON(pr.author), "triggering_actor": s.userJSON(pr.author),
		"jobs_url": url + "/jobs", "logs_url": url + "/logs", "artifacts_url": url + "/artifacts",
		"cancel_url": url + "/cancel", "rerun_url": url + "/rerun", "previous_attempt_url": nil,
		"check_suite_url": s.apiURL("/repos/%s/check-suites/%d", fn, cs.id),
		"workflow_url":    s.apiURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"head_commit":     s.headCommitJSON(r, c, pr.author),
		"repository":      s.repoJSON(r), "head_repository": s.repoJSON(pr.headRepository()),
	}
	p := obj{"action": "completed", "workflow": workflow, "workflow_run": wr}
	return s.event(r, "workflow_run", "completed", pr.author, p)
}

// checkSuiteEvent is check_suite/completed of a third-party app's suite cs.
func (s *Server) checkSuiteEvent(r *repo, pr *issue, cs *checkSuite) Event {
	fn := r.fullName()
	runs := suiteRuns(r.commits[pr.headSHA], cs)
	done := runs[len(runs)-1].completedAt
	url := s.apiURL("/repos/%s/check-suites/%d", fn, cs.id)
	before := pr.baseSHA
	if len(pr.commits) > 1 {
		before = pr.commits[len(pr.commits)-2]
	}
	var headBranch any = pr.head
	if pr.crossRepo() {
		headBranch = nil // see prRefs
	}
	p := obj{
		"id": cs.id, "node_id": nodeID("CheckSuite", cs.id), "head_branch": headBranch,
		"head_sha": pr.headSHA, "status": "completed", "conclusion": suiteConclusion(runs), "url": url,
		"before": before, "after": pr.headSHA, "pull_requests": s.prRefs(r, pr),
		"app": s.appJSON(cs.app), "created_at": ts(done), "updated_at": ts(done),
		"latest_check_runs_count": len(runs), "check_runs_url": url + "/check-runs",
		"head_commit": s.headCommitJSON(r, r.commits[pr.headSHA], pr.author),
	}
	return s.event(r, "check_suite", "completed", cs.app+"[bot]", obj{"action": "completed", "check_suite": p})
}

// statusEvent is a status event for a commit status on a pull request's head.
func (s *Server) statusEvent(r *repo, pr *issue, c *commit, st *status) Event {
	fn := r.fullName()
	commitURL := s.apiURL("/repos/%s/commits/%s", fn, c.sha)
	who := obj{"name": pr.author, "email": pr.author + "@users.noreply.github.com", "date": ts(c.date)}
	p := obj{
		"id": st.id, "sha": c.sha, "name": fn, "target_url": nil, "avatar_url": nil,
		"context": st.context, "description": nil, "state": st.state,
		"created_at": ts(st.createdAt), "updated_at": ts(st.createdAt),
		"commit": obj{"sha": c.sha, "node_id": nodeID("Commit", stableID(c.sha)), "url": commitURL,
			"html_url": fmt.Sprintf("%s/%s/commit/%s", htmlBase, fn, c.sha),
			"commit": obj{"message": c.message, "author": who, "committer": who,
				"tree": obj{"sha": fakeSHA("tree", c.sha)}, "comment_count": 0},
			"author": s.userJSON(pr.author), "committer": s.userJSON(pr.author), "parents": []any{}},
		"branches": []any{obj{"name": pr.head, "protected": false,
			"commit": obj{"sha": c.sha, "url": commitURL}}},
	}
	return s.event(r, "status", "", pr.author, p)
}
