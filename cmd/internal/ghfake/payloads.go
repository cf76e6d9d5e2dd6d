package ghfake

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
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
	p := obj{"action": action, "number": pr.Number, "pull_request": s.prJSON(r, pr)}
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
	if pr.CrossRepo() {
		return []any{}
	}
	repoRef := obj{"id": r.ID, "url": s.apiURL("/repos/%s", r.FullName()), "name": r.Name}
	return []any{obj{
		"id": pr.ID, "number": pr.Number, "url": s.apiURL("/repos/%s/pulls/%d", r.FullName(), pr.Number),
		"head": obj{"ref": pr.Head, "sha": pr.HeadSHA, "repo": repoRef},
		"base": obj{"ref": pr.Base, "sha": pr.BaseSHA, "repo": repoRef},
	}}
}

// headCommitJSON is the head_commit of suites and runs.
func (s *Server) headCommitJSON(r *repo, c *commit, author string) obj {
	who := obj{"name": author, "email": author + "@users.noreply.github.com"}
	return obj{"id": c.SHA, "tree_id": world.FakeSHA("tree", c.SHA), "message": c.Message,
		"timestamp": ts(c.Date), "author": who, "committer": who}
}

// appID is the id of the GitHub App slug.
func appID(slug string) int64 { return world.StableID("app:" + slug) }

// workflowID is the id of the Actions workflow name of repository r.
func workflowID(r *repo, name string) int64 {
	return world.StableID(r.FullName() + ":workflow:" + name)
}

// appJSON is a GitHub App object.
func (s *Server) appJSON(slug string) obj {
	id := appID(slug)
	return obj{"id": id, "slug": slug, "node_id": world.NodeID("App", id), "name": slug,
		"owner": s.userJSON(slug), "description": "", "external_url": "https://" + slug + ".example",
		"html_url": htmlBase + "/apps/" + slug, "created_at": ts(timeZero), "updated_at": ts(timeZero),
		"permissions": obj{"checks": "write", "metadata": "read"}, "events": []any{}}
}

// workflowRunEvent is workflow_run/completed for the run of an Actions workflow that is suite cs.
func (s *Server) workflowRunEvent(r *repo, pr *issue, cs *checkSuite) Event {
	fn := r.FullName()
	c := r.Commits[pr.HeadSHA]
	runs := world.SuiteRuns(c, cs)
	done := runs[len(runs)-1].CompletedAt
	wfID := workflowID(r, cs.Workflow)
	path := ".github/workflows/" + cs.Workflow + ".yml"
	url := s.apiURL("/repos/%s/actions/runs/%d", fn, cs.RunID)
	workflow := obj{"id": wfID, "node_id": world.NodeID("Workflow", wfID), "name": cs.Workflow, "path": path,
		"state": "active", "url": s.apiURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"html_url":   fmt.Sprintf("%s/%s/blob/%s/%s", htmlBase, fn, r.DefaultBranch, path),
		"badge_url":  fmt.Sprintf("%s/%s/workflows/%s/badge.svg", htmlBase, fn, cs.Workflow),
		"created_at": ts(timeZero), "updated_at": ts(timeZero)}
	wr := obj{
		"id": cs.RunID, "node_id": world.NodeID("WorkflowRun", cs.RunID), "name": cs.Workflow,
		"display_title": pr.Title, "path": path, "head_branch": pr.Head, "head_sha": pr.HeadSHA,
		"run_number": cs.RunID % 1000, "run_attempt": 1, "event": "pull_request", "status": "completed",
		"conclusion": world.SuiteConclusion(runs), "workflow_id": wfID, "check_suite_id": cs.ID,
		"check_suite_node_id": world.NodeID("CheckSuite", cs.ID), "url": url,
		"html_url":      fmt.Sprintf("%s/%s/actions/runs/%d", htmlBase, fn, cs.RunID),
		"pull_requests": s.prRefs(r, pr), "created_at": ts(done),
		"updated_at": ts(done), "run_started_at": ts(done),
		"actor": s.userJSON(pr.Author), "triggering_actor": s.userJSON(pr.Author),
		"jobs_url": url + "/jobs", "logs_url": url + "/logs", "artifacts_url": url + "/artifacts",
		"cancel_url": url + "/cancel", "rerun_url": url + "/rerun", "previous_attempt_url": nil,
		"check_suite_url": s.apiURL("/repos/%s/check-suites/%d", fn, cs.ID),
		"workflow_url":    s.apiURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"head_commit":     s.headCommitJSON(r, c, pr.Author),
		"repository":      s.repoJSON(r), "head_repository": s.repoJSON(pr.HeadRepository()),
	}
	p := obj{"action": "completed", "workflow": workflow, "workflow_run": wr}
	return s.event(r, "workflow_run", "completed", pr.Author, p)
}

// checkSuiteEvent is check_suite/completed of a third-party app's suite cs.
func (s *Server) checkSuiteEvent(r *repo, pr *issue, cs *checkSuite) Event {
	fn := r.FullName()
	runs := world.SuiteRuns(r.Commits[pr.HeadSHA], cs)
	done := runs[len(runs)-1].CompletedAt
	url := s.apiURL("/repos/%s/check-suites/%d", fn, cs.ID)
	before := pr.BaseSHA
	if len(pr.Commits) > 1 {
		before = pr.Commits[len(pr.Commits)-2]
	}
	var headBranch any = pr.Head
	if pr.CrossRepo() {
		headBranch = nil // see prRefs
	}
	p := obj{
		"id": cs.ID, "node_id": world.NodeID("CheckSuite", cs.ID), "head_branch": headBranch,
		"head_sha": pr.HeadSHA, "status": "completed", "conclusion": world.SuiteConclusion(runs), "url": url,
		"before": before, "after": pr.HeadSHA, "pull_requests": s.prRefs(r, pr),
		"app": s.appJSON(cs.App), "created_at": ts(done), "updated_at": ts(done),
		"latest_check_runs_count": len(runs), "check_runs_url": url + "/check-runs",
		"head_commit": s.headCommitJSON(r, r.Commits[pr.HeadSHA], pr.Author),
	}
	return s.event(r, "check_suite", "completed", cs.App+"[bot]", obj{"action": "completed", "check_suite": p})
}

// statusEvent is a status event for a commit status on a pull request's head.
func (s *Server) statusEvent(r *repo, pr *issue, c *commit, st *status) Event {
	fn := r.FullName()
	commitURL := s.apiURL("/repos/%s/commits/%s", fn, c.SHA)
	who := obj{"name": pr.Author, "email": pr.Author + "@users.noreply.github.com", "date": ts(c.Date)}
	p := obj{
		"id": st.ID, "sha": c.SHA, "name": fn, "target_url": optString(st.TargetURL), "avatar_url": nil,
		"context": st.Context, "description": optString(st.Description), "state": st.State,
		"created_at": ts(st.CreatedAt), "updated_at": ts(st.CreatedAt),
		"commit": obj{"sha": c.SHA, "node_id": world.NodeID("Commit", world.StableID(c.SHA)), "url": commitURL,
			"html_url": fmt.Sprintf("%s/%s/commit/%s", htmlBase, fn, c.SHA),
			"commit": obj{"message": c.Message, "author": who, "committer": who,
				"tree": obj{"sha": world.FakeSHA("tree", c.SHA)}, "comment_count": 0},
			"author": s.userJSON(pr.Author), "committer": s.userJSON(pr.Author), "parents": []any{}},
		"branches": []any{obj{"name": pr.Head, "protected": false,
			"commit": obj{"sha": c.SHA, "url": commitURL}}},
	}
	return s.event(r, "status", "", cmp.Or(st.Creator, pr.Author), p)
}
