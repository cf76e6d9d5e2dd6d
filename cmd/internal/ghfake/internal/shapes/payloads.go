package shapes

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Webhook payloads follow GitHub's real deliveries (testdata/github/webhooks). Deliberately omitted
// top-level keys: "installation" (Actions delivers events to workflows without an app installation)
// and "organization" (the fake has no organizations). TestPayloadShapes holds the rest to the real
// examples. The caller of every builder holds Mu.

// EventOf wraps a payload with repository and sender.
func (s *Shapes) EventOf(r *world.Repo, name, action, sender string, p Obj) Event {
	p["repository"] = s.RepoJSON(r)
	p["sender"] = s.UserJSON(sender)
	b, err := json.Marshal(p)
	if err != nil {
		panic(fmt.Sprintf("ghfake: encoding %s payload: %v", name, err))
	}
	return Event{Name: name, Action: action, Payload: b}
}

// PREvent is a pull_request event; extra adds keys such as label, before and after.
func (s *Shapes) PREvent(r *world.Repo, pr *world.Issue, action, sender string, extra Obj) Event {
	p := Obj{"action": action, "number": pr.Number, "pull_request": s.PRJSON(r, pr)}
	for k, v := range extra {
		p[k] = v
	}
	return s.EventOf(r, "pull_request", action, sender, p)
}

// IssuesEvent is an issues event.
func (s *Shapes) IssuesEvent(r *world.Repo, is *world.Issue, action, sender string, extra Obj) Event {
	p := Obj{"action": action, "issue": s.IssueJSON(r, is)}
	for k, v := range extra {
		p[k] = v
	}
	return s.EventOf(r, "issues", action, sender, p)
}

// ReviewEvent is a pull_request_review event.
func (s *Shapes) ReviewEvent(r *world.Repo, pr *world.Issue, rv *world.Review, action, sender string) Event {
	p := Obj{"action": action, "review": s.ReviewJSON(r, pr, rv, true), "pull_request": s.PRJSON(r, pr)}
	return s.EventOf(r, "pull_request_review", action, sender, p)
}

// PRRefs is pull_requests as check suites and workflow runs carry them: empty for a pull request
// from a fork ("When the check suite's head_branch is in a forked repository it will be null and
// the pull_requests array will be empty", GitHub's check_suite webhook reference).
func (s *Shapes) PRRefs(r *world.Repo, pr *world.Issue) []any {
	if pr.CrossRepo() {
		return []any{}
	}
	repoRef := Obj{"id": r.ID, "url": s.APIURL("/repos/%s", r.FullName()), "name": r.Name}
	return []any{Obj{
		"id": pr.ID, "number": pr.Number, "url": s.APIURL("/repos/%s/pulls/%d", r.FullName(), pr.Number),
		"head": Obj{"ref": pr.Head, "sha": pr.HeadSHA, "repo": repoRef},
		"base": Obj{"ref": pr.Base, "sha": pr.BaseSHA, "repo": repoRef},
	}}
}

// HeadCommitJSON is the head_commit of suites and runs.
func (s *Shapes) HeadCommitJSON(r *world.Repo, c *world.Commit, author string) Obj {
	who := Obj{"name": author, "email": author + "@users.noreply.github.com"}
	return Obj{"id": c.SHA, "tree_id": world.FakeSHA("tree", c.SHA), "message": c.Message,
		"timestamp": TS(c.Date), "author": who, "committer": who}
}

// AppID is the id of the GitHub App slug.
func AppID(slug string) int64 { return world.StableID("app:" + slug) }

// WorkflowID is the id of the Actions workflow name of repository r.
func WorkflowID(r *world.Repo, name string) int64 {
	return world.StableID(r.FullName() + ":workflow:" + name)
}

// AppJSON is a GitHub App object.
func (s *Shapes) AppJSON(slug string) Obj {
	id := AppID(slug)
	return Obj{"id": id, "slug": slug, "node_id": world.NodeID("App", id), "name": slug,
		"owner": s.UserJSON(slug), "description": "", "external_url": "https://" + slug + ".example",
		"html_url": HTMLBase + "/apps/" + slug, "created_at": TS(TimeZero), "updated_at": TS(TimeZero),
		"permissions": Obj{"checks": "write", "metadata": "read"}, "events": []any{}}
}

// WorkflowRunEvent is workflow_run/completed for the run of an Actions workflow that is suite cs.
func (s *Shapes) WorkflowRunEvent(r *world.Repo, pr *world.Issue, cs *world.CheckSuite) Event {
	fn := r.FullName()
	c := r.Commits[pr.HeadSHA]
	runs := world.SuiteRuns(c, cs)
	done := runs[len(runs)-1].CompletedAt
	wfID := WorkflowID(r, cs.Workflow)
	path := ".github/workflows/" + cs.Workflow + ".yml"
	url := s.APIURL("/repos/%s/actions/runs/%d", fn, cs.RunID)
	workflow := Obj{"id": wfID, "node_id": world.NodeID("Workflow", wfID), "name": cs.Workflow, "path": path,
		"state": "active", "url": s.APIURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"html_url":   fmt.Sprintf("%s/%s/blob/%s/%s", HTMLBase, fn, r.DefaultBranch, path),
		"badge_url":  fmt.Sprintf("%s/%s/workflows/%s/badge.svg", HTMLBase, fn, cs.Workflow),
		"created_at": TS(TimeZero), "updated_at": TS(TimeZero)}
	wr := Obj{
		"id": cs.RunID, "node_id": world.NodeID("WorkflowRun", cs.RunID), "name": cs.Workflow,
		"display_title": pr.Title, "path": path, "head_branch": pr.Head, "head_sha": pr.HeadSHA,
		"run_number": cs.RunID % 1000, "run_attempt": 1, "event": "pull_request", "status": "completed",
		"conclusion": world.SuiteConclusion(runs), "workflow_id": wfID, "check_suite_id": cs.ID,
		"check_suite_node_id": world.NodeID("CheckSuite", cs.ID), "url": url,
		"html_url":      fmt.Sprintf("%s/%s/actions/runs/%d", HTMLBase, fn, cs.RunID),
		"pull_requests": s.PRRefs(r, pr), "created_at": TS(done),
		"updated_at": TS(done), "run_started_at": TS(done),
		"actor": s.UserJSON(pr.Author), "triggering_actor": s.UserJSON(pr.Author),
		"jobs_url": url + "/jobs", "logs_url": url + "/logs", "artifacts_url": url + "/artifacts",
		"cancel_url": url + "/cancel", "rerun_url": url + "/rerun", "previous_attempt_url": nil,
		"check_suite_url": s.APIURL("/repos/%s/check-suites/%d", fn, cs.ID),
		"workflow_url":    s.APIURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"head_commit":     s.HeadCommitJSON(r, c, pr.Author),
		"repository":      s.RepoJSON(r), "head_repository": s.RepoJSON(pr.HeadRepository()),
	}
	p := Obj{"action": "completed", "workflow": workflow, "workflow_run": wr}
	return s.EventOf(r, "workflow_run", "completed", pr.Author, p)
}

// CheckSuiteEvent is check_suite/completed of a third-party app's suite cs.
func (s *Shapes) CheckSuiteEvent(r *world.Repo, pr *world.Issue, cs *world.CheckSuite) Event {
	fn := r.FullName()
	runs := world.SuiteRuns(r.Commits[pr.HeadSHA], cs)
	done := runs[len(runs)-1].CompletedAt
	url := s.APIURL("/repos/%s/check-suites/%d", fn, cs.ID)
	before := pr.BaseSHA
	if len(pr.Commits) > 1 {
		before = pr.Commits[len(pr.Commits)-2]
	}
	var headBranch any = pr.Head
	if pr.CrossRepo() {
		headBranch = nil // see prRefs
	}
	p := Obj{
		"id": cs.ID, "node_id": world.NodeID("CheckSuite", cs.ID), "head_branch": headBranch,
		"head_sha": pr.HeadSHA, "status": "completed", "conclusion": world.SuiteConclusion(runs), "url": url,
		"before": before, "after": pr.HeadSHA, "pull_requests": s.PRRefs(r, pr),
		"app": s.AppJSON(cs.App), "created_at": TS(done), "updated_at": TS(done),
		"latest_check_runs_count": len(runs), "check_runs_url": url + "/check-runs",
		"head_commit": s.HeadCommitJSON(r, r.Commits[pr.HeadSHA], pr.Author),
	}
	return s.EventOf(r, "check_suite", "completed", cs.App+"[bot]", Obj{"action": "completed", "check_suite": p})
}

// StatusEvent is a status event for a commit status on a pull request's head.
func (s *Shapes) StatusEvent(r *world.Repo, pr *world.Issue, c *world.Commit, st *world.Status) Event {
	fn := r.FullName()
	commitURL := s.APIURL("/repos/%s/commits/%s", fn, c.SHA)
	who := Obj{"name": pr.Author, "email": pr.Author + "@users.noreply.github.com", "date": TS(c.Date)}
	p := Obj{
		"id": st.ID, "sha": c.SHA, "name": fn, "target_url": OptString(st.TargetURL), "avatar_url": nil,
		"context": st.Context, "description": OptString(st.Description), "state": st.State,
		"created_at": TS(st.CreatedAt), "updated_at": TS(st.CreatedAt),
		"commit": Obj{"sha": c.SHA, "node_id": world.NodeID("Commit", world.StableID(c.SHA)), "url": commitURL,
			"html_url": fmt.Sprintf("%s/%s/commit/%s", HTMLBase, fn, c.SHA),
			"commit": Obj{"message": c.Message, "author": who, "committer": who,
				"tree": Obj{"sha": world.FakeSHA("tree", c.SHA)}, "comment_count": 0},
			"author": s.UserJSON(pr.Author), "committer": s.UserJSON(pr.Author), "parents": []any{}},
		"branches": []any{Obj{"name": pr.Head, "protected": false,
			"commit": Obj{"sha": c.SHA, "url": commitURL}}},
	}
	return s.EventOf(r, "status", "", cmp.Or(st.Creator, pr.Author), p)
}

// Event is a webhook delivery as GitHub would send it for a change of the world.
type Event struct {
	Name    string // the X-GitHub-Event header: pull_request, issues, ...
	Action  string // the payload's action ("" for events without one, such as status)
	Payload []byte // the JSON body
}
