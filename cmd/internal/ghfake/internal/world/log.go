package world

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// MergeRecord is what GitHub knew of a pull request when it merged it: the head it merged,
// when, and the reviews, check runs and commit statuses that stood then. Tests judge a merge
// by it (was it approved, was CI green) without replaying how the merge came about.
type MergeRecord struct {
	Repo    string
	Number  int
	Author  string
	HeadSHA string
	At      time.Time
	// Base is the branch it merged into; Labels are its labels then.
	Base   string
	Labels []string
	// Reviews are every review of the pull request then, oldest first.
	Reviews []ReviewRecord
	// Checks are the check runs on the head then; Statuses its commit statuses, oldest first.
	Checks   []CheckRecord
	Statuses []StatusRecord
}

// ReviewRecord is a review as it stood at a merge, with its author's permission then.
type ReviewRecord struct {
	User, Permission, State, CommitID string
}

// CheckRecord is a check run on a merged head.
type CheckRecord struct {
	Name, Status, Conclusion string
}

// StatusRecord is a commit status on a merged head.
type StatusRecord struct {
	Context, State string
}

// RecordMerge keeps what stands as pr is merged. The caller holds Mu.
func (s *World) RecordMerge(r *Repo, pr *Issue) {
	s.MergeLog = append(s.MergeLog, s.StandingOf(r, pr))
}

// StandingOf is what stands on pr now, as a merge would record it. The caller holds Mu.
func (s *World) StandingOf(r *Repo, pr *Issue) MergeRecord {
	m := MergeRecord{Repo: r.FullName(), Number: pr.Number, Author: pr.Author, HeadSHA: pr.HeadSHA, At: s.Clock(),
		Base: pr.Base, Labels: append([]string(nil), pr.Labels...)}
	for _, rv := range pr.Reviews {
		m.Reviews = append(m.Reviews, ReviewRecord{User: rv.User, Permission: s.PermissionOf(rv.User), State: rv.State, CommitID: rv.CommitID})
	}
	if c := r.Commits[pr.HeadSHA]; c != nil {
		for _, cr := range c.Checks {
			m.Checks = append(m.Checks, CheckRecord{Name: cr.Name, Status: cr.Status, Conclusion: cr.Conclusion})
		}
		for _, st := range c.Statuses {
			m.Statuses = append(m.Statuses, StatusRecord{Context: st.Context, State: st.State})
		}
	}
	return m
}

// Dispatch is a workflow_dispatch or repository_dispatch the code under test sent.
type Dispatch struct {
	Repo      string
	Workflow  string         // workflow file name or id (workflow_dispatch)
	Ref       string         // (workflow_dispatch)
	EventType string         // (repository_dispatch)
	Inputs    map[string]any // inputs, or client_payload for repository_dispatch
	// The workflow run a workflow_dispatch started: its id, its name (the workflow's
	// `name:`) and its display title (the workflow's `run-name:` over the inputs).
	RunID   int64
	Name    string
	RunName string
	// Actor is who dispatched it (the token's account): the run's actor and triggering_actor.
	Actor string
	// Created is when its workflow run was created (the fake's clock).
	Created time.Time
}

// Assignment is a login added to an issue's or pull request's assignees, and by whom.
type Assignment struct {
	Repo         string
	Number       int
	Actor, Login string
}

// Log is what the code under test did through the API that tests judge it by: the
// dispatches it sent, the assignees it added, the merges it made and its reactions.
type Log struct {
	DispatchLog []Dispatch
	AssignLog   []Assignment
	MergeLog    []MergeRecord
	Reactions   map[string]int64 // comment/user/content → reaction id
	RerunLog    []Rerun
}

// Rerun is a workflow run whose failed jobs were run again, by whom, and the jobs (check
// runs) that went back to the queue.
type Rerun struct {
	Repo     string
	RunID    int64
	Workflow string
	Actor    string
	Jobs     []string
}

// rerunConclusions are the conclusions of the jobs "Re-run failed jobs" runs again.
var rerunConclusions = map[string]bool{"failure": true, "cancelled": true, "timed_out": true}

// RerunFailed runs again the failed jobs of the workflow run id of r, as GitHub's "Re-run
// failed jobs" does: each check run of the run's suite that did not succeed goes back to
// the queue (a new attempt, no conclusion yet), until a check step plays its result. It
// returns the rerun, and false when r has no such run. The caller holds Mu.
func (s *World) RerunFailed(r *Repo, id int64, actor string) (Rerun, bool) {
	for _, c := range r.Commits {
		for _, cr := range c.Checks {
			su := cr.Suite
			if su == nil || su.RunID != id {
				continue
			}
			rr := Rerun{Repo: r.FullName(), RunID: id, Workflow: su.Workflow, Actor: actor}
			for _, job := range c.Checks {
				if job.Suite == su && job.Status == "completed" && rerunConclusions[job.Conclusion] {
					job.Status, job.Conclusion, job.CompletedAt = "queued", "", time.Time{}
					rr.Jobs = append(rr.Jobs, job.Name)
				}
			}
			s.RerunLog = append(s.RerunLog, rr)
			return rr, true
		}
	}
	return Rerun{}, false
}

// StartRun gives dispatch d the workflow run it starts: an id, and the name and display
// title GitHub gives it (the workflow's `name:`, or its path; its `run-name:` with the
// `${{ inputs.X }}` and `${{ github.event.inputs.X }}` it holds filled in, or the name). The
// caller holds Mu.
func (s *World) StartRun(r *Repo, d Dispatch) Dispatch {
	d.RunID, d.Created = s.NewBigID(), s.Clock()
	d.Name = ".github/workflows/" + d.Workflow
	d.RunName = ""
	if b := r.Branches[strings.TrimPrefix(d.Ref, "refs/heads/")]; b != nil {
		if f := b.Files[".github/workflows/"+d.Workflow]; f != nil {
			var wf struct {
				Name    string `yaml:"name"`
				RunName string `yaml:"run-name"`
			}
			if yaml.Unmarshal([]byte(f.Text), &wf) == nil {
				if wf.Name != "" {
					d.Name = wf.Name
				}
				d.RunName = inputsExpr.ReplaceAllStringFunc(wf.RunName, func(m string) string {
					return fmt.Sprint(d.Inputs[inputsExpr.FindStringSubmatch(m)[1]])
				})
			}
		}
	}
	if d.RunName == "" {
		d.RunName = d.Name
	}
	return d
}

var inputsExpr = regexp.MustCompile(`\$\{\{\s*(?:github\.event\.)?inputs\.([A-Za-z0-9_-]+)\s*\}\}`)
