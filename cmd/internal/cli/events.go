package cli

import (
	"encoding/json"
	"fmt"
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
}

// payload is the union of the webhook fields routing reads. Decoding into one struct
// keeps routing to the few fields GitHub documents for every event.
type payload struct {
	Action     string `json:"action"`
	Number     int    `json:"number"`
	Repository *struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
	PullRequest *struct {
		Number int `json:"number"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int       `json:"number"`
		PullRequest *struct{} `json:"pull_request"` // present when the issue is a pull request
	} `json:"issue"`
	WorkflowRun *commitEvent `json:"workflow_run"`
	CheckSuite  *commitEvent `json:"check_suite"`
	CheckRun    *commitEvent `json:"check_run"`
	SHA         string       `json:"sha"` // status
}

type commitEvent struct {
	HeadSHA      string `json:"head_sha"`
	PullRequests []struct {
		Number int `json:"number"`
	} `json:"pull_requests"`
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
		if p.Issue.PullRequest == nil {
			return routed{Event: r.Event}, nil // a comment on an issue: issue pipelines are not supported yet
		}
		r.Numbers = []int{p.Issue.Number}
	case "workflow_run", "check_suite", "check_run":
		c := map[string]*commitEvent{"workflow_run": p.WorkflowRun, "check_suite": p.CheckSuite, "check_run": p.CheckRun}[name]
		if c == nil {
			return routed{}, fmt.Errorf("%s payload has no %s", eventName, name)
		}
		if p.Action != "completed" {
			return routed{Event: r.Event}, nil // only a finished check can change a gate
		}
		r.SHA = c.HeadSHA
		for _, pr := range c.PullRequests {
			r.Numbers = append(r.Numbers, pr.Number)
		}
	case "status":
		if p.SHA == "" {
			return routed{}, fmt.Errorf("status payload has no sha")
		}
		r.SHA = p.SHA
	default: // issues (issue-scoped pipelines are not supported yet), push, ...
		return routed{Event: r.Event}, nil
	}
	if r.Repo == "" {
		return routed{}, fmt.Errorf("%s payload has no repository.full_name", eventName)
	}
	return r, nil
}
