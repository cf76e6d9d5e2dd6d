package run

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// routed is a webhook reduced to what the run path needs: which subjects it concerns
// and the engine's name for it.
type routed struct {
	Handled       bool
	Event         string // "pull_request.opened", "status"
	Repo          string // owner/name
	DefaultBranch string
	Actor         string
	Numbers       []int  // the PRs or issues it concerns
	SHA           string // for commit events without PR numbers: find the PRs by head
	// HeadRepo and HeadBranch are where a commit event says SHA is the head (a fork's
	// "owner/name" and branch), when it says: a fork's PR is found by them, since GitHub
	// lists no fork PR in the event and associates no fork commit with a PR of the base.
	HeadRepo, HeadBranch string
	// Foreign lists the pull requests a commit event names in another repository
	// ("owner/name#3", or the API URL when that is all the entry gives), left out of Numbers.
	Foreign []string
	// Report is an agent's report (the report command); AgentFailure an agent's workflow
	// that ended without one.
	Report       *model.Report
	AgentFailure *model.AgentFailure
	// Issue: Numbers are issues, not pull requests (issues events, a comment on an issue):
	// the subjects of `scope: issue` pipelines.
	Issue bool
	// CommentID is the comment an issue_comment event names; Pipeline the pipeline a
	// workflow_dispatch of the action's workflow asks to start.
	CommentID int64
	Pipeline  string
	// Label is the label a `labeled` event says was added (engine.Input.Label).
	Label string
	// follow are pull requests an issue's invocation reads at once (it follows an event on
	// them); follower is recorded on a pull request's state.
	follow   []int
	follower *model.Follower
	// followRefs are pull requests of other repositories an issue's invocation reads at
	// once.
	followRefs []model.PRRef
	// OwnStatus is a status event of a context the action writes.
	OwnStatus *ownStatus
	// Pushed is the branch a push event moved: the base of the pull requests kept up to date.
	Pushed string

	// reviewed: the sweep evaluates a pull request given a review since its state was
	// written, so the state is written, which dates what it has seen.
	reviewed bool
}

// payload is the union of the webhook fields routing reads. Decoding into one struct
// keeps routing to the few fields GitHub documents for every event.
type payload struct {
	Action     string `json:"action"`
	Number     int    `json:"number"`
	Repository *struct {
		repoRef
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
	PullRequest *struct {
		Number int `json:"number"`
	} `json:"pull_request"`
	MergeGroup *struct {
		HeadRef string `json:"head_ref"`
	} `json:"merge_group"`
	Deployment *struct {
		SHA string `json:"sha"`
	} `json:"deployment"`
	Issue *struct {
		Number      int       `json:"number"`
		PullRequest *struct{} `json:"pull_request"` // present when the issue is a pull request
	} `json:"issue"`
	Comment *struct {
		ID int64 `json:"id"`
	} `json:"comment"`
	Label *struct {
		Name string `json:"name"`
	} `json:"label"` // labeled, unlabeled
	Inputs      map[string]any `json:"inputs"` // workflow_dispatch
	WorkflowRun *commitEvent   `json:"workflow_run"`
	CheckSuite  *commitEvent   `json:"check_suite"`
	CheckRun    *commitEvent   `json:"check_run"`
	Ref         string         `json:"ref"`        // push
	Deleted     bool           `json:"deleted"`    // push
	SHA         string         `json:"sha"`        // status
	Context     string         `json:"context"`    // status
	State       string         `json:"state"`      // status
	TargetURL   string         `json:"target_url"` // status
}

type commitEvent struct {
	HeadSHA      string  `json:"head_sha"`
	PullRequests []prRef `json:"pull_requests"`
	// workflow_run: what started it, its display title (run-name) and conclusion; an
	// agent's workflow is recognised by them (agentRun), and told from a run someone else
	// started by its id, workflow file, branch and who started it.
	Event           string   `json:"event"`
	DisplayTitle    string   `json:"display_title"`
	Conclusion      string   `json:"conclusion"`
	HeadRepository  *repoRef `json:"head_repository"`
	ID              int64    `json:"id"`
	Path            string   `json:"path"`
	HeadBranch      string   `json:"head_branch"`
	Actor           *account `json:"actor"`
	TriggeringActor *account `json:"triggering_actor"`
}

// account is a user or bot of a payload.
type account struct {
	Login string `json:"login"`
}

// loginOf is a's login, or "".
func loginOf(a *account) string {
	if a == nil {
		return ""
	}
	return a.Login
}

// prRef is an entry of a commit event's pull_requests. GitHub lists there the pull
// requests whose head is the commit, in any repository of the network: a run in a
// fork names the upstream's PR, whose number means nothing here.
type prRef struct {
	Number int    `json:"number"`
	URL    string `json:"url"`
	Base   struct {
		Repo *repoRef `json:"repo"`
	} `json:"base"`
}

// repoRef identifies a repository as webhook payloads do: id, API URL and name.
type repoRef struct {
	ID       int64  `json:"id"`
	URL      string `json:"url"`
	Name     string `json:"name"`
	FullName string `json:"full_name"` // absent from pull_requests entries
}

// same reports whether r and o are one repository: by id when both have one, else by
// API URL. The name alone is not enough (a fork has its parent's name), and an entry
// that cannot be matched is not this repository's.
func (r *repoRef) same(o *repoRef) bool {
	switch {
	case r == nil || o == nil:
		return false
	case r.ID != 0 && o.ID != 0:
		return r.ID == o.ID
	case r.URL != "" && o.URL != "":
		return strings.EqualFold(r.URL, o.URL)
	}
	return false
}

// route reads a webhook payload. An event the action never handles is returned with
// Handled false and costs no API call; a payload that is not what GitHub sends for
// that event is an error.
func route(eventName string, raw []byte) (routed, error) {
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		return routed{}, fmt.Errorf("reading %s payload: %w", eventName, err)
	}
	r := routed{Handled: true}
	if p.Repository != nil {
		r.Repo, r.DefaultBranch = p.Repository.FullName, p.Repository.DefaultBranch
	}
	if p.Sender != nil {
		r.Actor = p.Sender.Login
	}
	name := eventName
	if name == "pull_request_target" {
		name = "pull_request" // same payload; the workflow runs in the base's context
	}
	r.Event = name
	if p.Action != "" {
		r.Event = name + "." + p.Action
	}
	if p.Label != nil {
		r.Label = p.Label.Name
	}
	switch name {
	case "pull_request", "pull_request_review":
		if p.PullRequest == nil {
			return routed{}, fmt.Errorf("%s payload has no pull_request", eventName)
		}
		r.Numbers = []int{p.PullRequest.Number}
	case "issue_comment":
		if p.Issue == nil {
			return routed{}, fmt.Errorf("%s payload has no issue", eventName)
		}
		r.Numbers, r.Issue, r.CommentID = []int{p.Issue.Number}, p.Issue.PullRequest == nil, p.commentID() // on an issue: its runs' chat-ops
	case "issues":
		if p.Issue == nil {
			return routed{}, fmt.Errorf("%s payload has no issue", eventName)
		}
		r.Numbers, r.Issue = []int{p.Issue.Number}, true
	case "workflow_run", "check_suite", "check_run":
		return routeCommitEvent(r, eventName, name, p)
	case "merge_group":
		// A merge group's branch names its pull request: the run waiting in the queue sees
		// the group's end (its merge, or the pull request taken out) at once.
		if p.MergeGroup == nil {
			return routed{}, fmt.Errorf("merge_group payload has no merge_group")
		}
		m := queueRef.FindStringSubmatch(p.MergeGroup.HeadRef)
		if m == nil {
			return routed{Event: r.Event}, nil
		}
		n, _ := strconv.Atoi(m[1])
		r.Numbers = []int{n}
	case "workflow_dispatch":
		return routeDispatch(r, p.Inputs)
	case "status":
		if p.SHA == "" {
			return routed{}, fmt.Errorf("status payload has no sha")
		}
		r.SHA = p.SHA
		if ghapi.IsOwnStatus(p.Context) { // nothing waits on it; it is checked
			r.OwnStatus = &ownStatus{Context: p.Context, State: p.State, Hint: statusHint(p.TargetURL, r.Repo)}
		}
	case "deployment_status": // the deployment's commit names the PRs, as a status's does
		if p.Deployment == nil || p.Deployment.SHA == "" {
			return routed{}, fmt.Errorf("deployment_status payload has no deployment.sha")
		}
		r.SHA = p.Deployment.SHA
	case "push":
		// Only a branch that moved can leave pull requests behind it.
		branch, ok := strings.CutPrefix(p.Ref, "refs/heads/")
		if !ok || p.Deleted {
			return routed{Event: r.Event}, nil
		}
		r.Pushed = branch
	default:
		return routed{Event: r.Event}, nil
	}
	return withRepo(r, eventName)
}

// routeCommitEvent routes a finished workflow run, check suite or check run: to the run and
// stage its agent worked for, or to the pull requests of its head commit in this repository.
func routeCommitEvent(r routed, eventName, name string, p payload) (routed, error) {
	c := map[string]*commitEvent{"workflow_run": p.WorkflowRun, "check_suite": p.CheckSuite, "check_run": p.CheckRun}[name]
	if c == nil {
		return routed{}, fmt.Errorf("%s payload has no %s", eventName, name)
	}
	if p.Action != "completed" {
		return routed{Event: r.Event}, nil // only a finished check can change a gate
	}
	if f, n, ok := agentRun(name, p); ok {
		r.Numbers, r.AgentFailure = []int{n}, f
		return withRepo(r, eventName)
	}
	r.SHA, r.HeadBranch = c.HeadSHA, c.HeadBranch
	if c.HeadRepository != nil {
		r.HeadRepo = c.HeadRepository.FullName
	}
	var here *repoRef
	if p.Repository != nil {
		here = &p.Repository.repoRef
	}
	for _, pr := range c.PullRequests {
		if here.same(pr.Base.Repo) {
			r.Numbers = append(r.Numbers, pr.Number)
		} else {
			r.Foreign = append(r.Foreign, foreignPR(pr))
		}
	}
	// With none left, the run path finds this repository's PRs by r.SHA (and a fork's
	// by r.HeadRepo and r.HeadBranch).
	return withRepo(r, eventName)
}

// withRepo is r, routed, when its payload named the repository.
func withRepo(r routed, eventName string) (routed, error) {
	if r.Repo == "" {
		return routed{}, fmt.Errorf("%s payload has no repository.full_name", eventName)
	}
	return r, nil
}

// foreignPR names a pull request of another repository for the log.
func foreignPR(pr prRef) string {
	if b := pr.Base.Repo; b != nil && b.URL != "" {
		if i := strings.Index(b.URL, "/repos/"); i >= 0 {
			return fmt.Sprintf("%s#%d", b.URL[i+len("/repos/"):], pr.Number)
		}
	}
	if pr.URL != "" {
		return pr.URL
	}
	return fmt.Sprintf("#%d of an unnamed repository", pr.Number)
}

// queueRef is the branch of a merge group: refs/heads/gh-readonly-queue/<base>/pr-<n>-<head sha>.
var queueRef = regexp.MustCompile(`^(?:refs/heads/)?gh-readonly-queue/.+/pr-(\d+)-[0-9a-f]{40}$`)
