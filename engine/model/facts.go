package model

import (
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Facts is what is true about a subject now, read from GitHub in one query.
type Facts struct {
	Repo          string // owner/name
	DefaultBranch string
	Viewer        string // the action's own login
	// ActionsToken says the action acts with a workflow's GITHUB_TOKEN: GitHub starts no
	// workflow for what it pushes, so CI never runs on a branch update it makes.
	ActionsToken bool
	PR           *PullRequest
	// People is what was read of the people a human stage or a chat-op needs: team
	// members and repository permissions (see PeopleNeeded).
	People People
	// Groups are the config's groups by name, as checks that take `from` read them; the
	// engine sets them from the config when it evaluates a gate.
	Groups map[string]*lang.Group
	// TeamMembers are the logins of the members of teams ("org/slug", lower case) as read
	// from GitHub; a team missing from it was not read.
	TeamMembers map[string][]string
	// Ledger is the approvals of the run whose gates are evaluated; the
	// engine sets it, nil elsewhere.
	Ledger *Ledger
	// Issue is the subject when it is an issue (PR is then nil): the runs of `scope: issue`
	// pipelines. PRs are the pull requests associated with its runs, by number, as read in
	// the same query.
	Issue *Issue
	PRs   map[int]*PullRequest
	// RunAuthors are, while the gates of an issue's or a multi-PR run are evaluated, the
	// authors of the pull requests the run would merge (the engine sets them): none of them
	// approves any of them.
	RunAuthors []string
	// Agents are the logins the config's agents act as (`login`, an assign dispatch's
	// assignee), which the engine sets: no agent is a person, whatever its permission.
	Agents []string
	// ContributorsApprove is settings.approvals.allow_contributors, which the engine sets:
	// the authors and committers of a pull request's commits may approve it.
	ContributorsApprove bool
	// Now is the time of the event being evaluated, which the engine sets: what an
	// expression's now() gives, never the machine's clock.
	Now time.Time
	// Others are the pull requests of multi-PR runs that live in other repositories, keyed
	// by PRRef.Key ("owner/name#n", lower case), read in the same query.
	Others map[string]*PullRequest
	// Dispatches is what GitHub shows of the dispatches the state holds an intent of, by
	// the dispatch's effect key, read only for those that need a look-up of their own (a
	// workflow_dispatch, an assignee). A key missing was not read.
	Dispatches map[string]DispatchTrace
	// ConfigSince is when the config last changed on the default branch (its commit's
	// date; zero when not read), and Defined, by pipeline, since when its own definition
	// is as it is (state.Definitions; a pipeline missing there: ConfigSince). A
	// level-triggered start counts only a trigger that became true since (DefinedAt).
	ConfigSince time.Time
	Defined     map[string]time.Time
}

// DefinedAt is since when pipeline's definition is on the default branch as it is.
func (f *Facts) DefinedAt(pipeline string) time.Time {
	if at, ok := f.Defined[pipeline]; ok {
		return at
	}
	return f.ConfigSince
}

// PR states.
const (
	PROpen   = "open"
	PRClosed = "closed"
	PRMerged = "merged"
)

// Mergeability of a PR.
const (
	Mergeable   = "mergeable"
	Conflicting = "conflicting"
	Unknown     = "unknown"
)

// LinkedFromBody is PullRequest.LinkedFrom for issues read from closing keywords in the body.
const LinkedFromBody = "body"

// PullRequest is a pull request as the engine sees it.
type PullRequest struct {
	Number  int
	Title   string
	State   string // PROpen | PRClosed | PRMerged
	Draft   bool
	Author  string
	BaseRef string
	HeadRef string
	// HeadRepo is the owner/name of the repository the head branch lives in; "" when
	// GitHub no longer knows it (the fork was deleted).
	HeadRepo string
	// CrossRepo: the head branch lives in another repository than the base (a fork).
	CrossRepo bool
	HeadSHA   string
	Mergeable string // Mergeable | Conflicting | Unknown
	// MergeState is GitHub's mergeStateStatus: why the pull request cannot merge (BEHIND,
	// BLOCKED, DIRTY, UNSTABLE, UNKNOWN, DRAFT) or that it can (CLEAN, HAS_HOOKS); "" when
	// not read.
	MergeState string
	// InMergeQueue: it is in its base's merge queue, at QueuePosition (1 the front).
	InMergeQueue  bool
	QueuePosition int
	MergedBy      string // who merged it, once merged
	Labels        []string
	Reviews       []Review      // oldest first
	Checks        []CheckResult // check runs and commit statuses on HeadSHA
	// Deployments are HeadSHA's latest deployments (the `deployment` check reads them).
	Deployments Deployments
	// HTTP are the answers of the `http` checks' urls, by url; nil, or a url missing, when not fetched.
	HTTP      HTTPAnswers
	CreatedAt time.Time
	// Timeline holds the latest events that start pipelines or make approvals stale
	// (labels added and removed, reopenings, drafts, base changes), oldest first.
	Timeline []TimelineEvent
	// Posted holds the keys of the comment effects the action's own comments carry
	// (see EffectMarker): a comment posted before its state was saved is not posted again.
	Posted []string
	// Comments are the subject's comments, oldest first: what a human stage waiting for
	// a comment and chat-op commands read.
	Comments []IssueComment
	// BehindBy is how many commits of the base branch the head does not contain (0: it is up
	// to date with its base); nil when it was not read (only configs with branch_up_to_date
	// read it).
	BehindBy *int
	// PathsExist says, for each path or pattern a file_exists check names, whether the head
	// commit holds a file or directory there; nil, or a pattern missing, when not read.
	PathsExist map[string]bool
	// Commands are the results of the `command` checks' commands run on the head, by
	// command line; nil, or a command missing, when not run.
	Commands map[string]CommandResult
	// LinkedIssues are the issues the pull request closes when it is merged (GitHub's
	// closingIssuesReferences: closing keywords in its body, and issues linked by hand).
	LinkedIssues []int
	// LinkedFrom says where LinkedIssues come from: "" GitHub's links, LinkedFromBody the
	// closing keywords of the body, read by the action for a pull request into another
	// branch than the default one (GitHub links none there).
	LinkedFrom string
	// Files are the paths the pull request changes, read only when a condition tests them
	// (paths_match): FilesRead says they were read, FilesTruncated that GitHub listed only
	// the first of them (it lists at most 3,000).
	Files          []string
	FilesRead      bool
	FilesTruncated bool
	// CodeOwners is CODEOWNERS of the default branch of its repository, read only when a
	// codeowners_approved check is in use (with Files); nil when not read.
	CodeOwners *CodeOwners
	// Contributors are the GitHub users its commits name as their authors and committers
	// (GitHub's web-flow left out): people who wrote the change, who do not approve it
	// (Facts.Contributed).
	Contributors []string
	// CoAuthors are the authors of its commits other than its author, as git's
	// Co-authored-by trailer names them ("Name <email>"), oldest first.
	CoAuthors []string
	// Body is its description as its author wrote it: text of the pull request, for
	// templates (a merge's commit message), never live Markdown nor a command.
	Body string
}

// CommandResult is what running a `command` check's command gave.
type CommandResult struct {
	// Err says why the command was not run, or did not finish (its timeout); "" when it
	// ran to its end.
	Err      string
	TimedOut bool
	ExitCode int
	Output   string // the end of its output (stdout and stderr), trimmed
}

// EffectMarker is the hidden line a comment posted by a comment effect carries, so that
// the effect is recognised as done from the comment itself.
func EffectMarker(key string) string {
	return "<!-- pipeline-action:effect " + key + " -->"
}

// PostedEffects returns the effect keys body carries.
func PostedEffects(body string) []string {
	const prefix = "<!-- pipeline-action:effect "
	var out []string
	for {
		i := strings.Index(body, prefix)
		if i < 0 {
			return out
		}
		body = body[i+len(prefix):]
		j := strings.Index(body, " -->")
		if j < 0 {
			return out
		}
		if key := body[:j]; key != "" && !strings.ContainsAny(key, " \n") {
			out = append(out, key)
		}
		body = body[j:]
	}
}

// HasLabel reports whether the PR carries label name. GitHub compares label names without
// regard to case (`Security` is the label `security`), and so does every test of a label.
func (p *PullRequest) HasLabel(name string) bool {
	_, ok := p.Label(name)
	return ok
}

// Label returns the name of label name as the PR carries it (`WIP` for `wip`), and whether
// the PR carries it.
func (p *PullRequest) Label(name string) (string, bool) {
	for _, l := range p.Labels {
		if lang.SameLabel(l, name) {
			return l, true
		}
	}
	return "", false
}

// Kinds of timeline events.
const (
	TimelineLabeled          = "labeled"
	TimelineUnlabeled        = "unlabeled"
	TimelineReopened         = "reopened"
	TimelineReadyForReview   = "ready_for_review"
	TimelineConvertedToDraft = "converted_to_draft"
	TimelineBaseChanged      = "base_ref_changed"
	TimelineReviewDismissed  = "review_dismissed"
)

// TimelineEvent is one event of a PR's timeline.
type TimelineEvent struct {
	Kind  string
	Label string // labeled, unlabeled: the label; base_ref_changed: the new base; review_dismissed: the review's author
	At    time.Time
	Actor string // labeled, review_dismissed: who did it ("" when GitHub does not say)
}

// Last returns when the latest event of kind happened (for labels, of that label,
// compared as GitHub compares label names), or the zero time.
func (p *PullRequest) Last(kind, label string) time.Time {
	var at time.Time
	for _, ev := range p.Timeline {
		if ev.Kind == kind && (label == "" || strings.EqualFold(ev.Label, label)) && ev.At.After(at) {
			at = ev.At
		}
	}
	return at
}

// Authored reports whether login is the author of pr or of another pull request the run
// being evaluated would merge (RunAuthors).
func (f *Facts) Authored(pr *PullRequest, login string) bool {
	if pr != nil && strings.EqualFold(pr.Author, login) {
		return true
	}
	for _, a := range f.RunAuthors {
		if strings.EqualFold(a, login) {
			return true
		}
	}
	return false
}

// Contributed reports whether login wrote part of pr (an author or committer of one of
// its commits) and so does not approve it, unless the config allows contributors to.
func (f *Facts) Contributed(pr *PullRequest, login string) bool {
	if f == nil || pr == nil || f.ContributorsApprove {
		return false
	}
	for _, c := range pr.Contributors {
		if strings.EqualFold(c, login) {
			return true
		}
	}
	return false
}

// Review states, as GitHub names them.
const (
	ReviewApproved         = "APPROVED"
	ReviewChangesRequested = "CHANGES_REQUESTED"
	ReviewCommented        = "COMMENTED"
	ReviewDismissed        = "DISMISSED"
	ReviewPending          = "PENDING"
)

// Review is one submitted review.
type Review struct {
	Author      string
	State       string
	Body        string // what the reviewer wrote with it
	CommitSHA   string // the head the review was given on
	SubmittedAt time.Time
	CanPush     bool // the author has write access to the repository
	IsBot       bool // the author is an app (a GitHub App or an agent's bot account), not a person
	// EditedBy is who last edited the body when not its author (as IssueComment.EditedBy):
	// the body is then not the author's word, and is handed on to no one.
	EditedBy string
}

// Check states, normalised over check runs and commit statuses.
const (
	CheckPending = "pending"
	CheckSuccess = "success"
	CheckFailure = "failure"
)

// CheckResult is one check run or commit status on the head commit.
//
// A check run is identified by its app, its check suite and its name: a later result with
// all three the same is a re-run of the same check and replaces the earlier one. Check runs
// of the same name from another app or another suite are other checks, and count too. A
// commit status is identified by its context alone, as GitHub's combined status does.
type CheckResult struct {
	Name       string // check run name or status context
	Kind       string // "check_run" | "status"
	State      string // CheckPending | CheckSuccess | CheckFailure
	Conclusion string // raw: SUCCESS, FAILURE, NEUTRAL, SKIPPED, ERROR, ...
	App        string // check runs: the node id of the app owning the check suite ("" if unknown)
	Suite      string // check runs: the node id of the check suite
	Workflow   string // check runs of an Actions workflow: the workflow's name
	RunID      int64  // check runs of an Actions workflow: the workflow run's id
}

// LatestReviews returns each reviewer's latest review that states an opinion (APPROVED,
// CHANGES_REQUESTED or DISMISSED), in the order reviewers first appear: the one rule of
// which review counts, for human stages and gates alike. A later COMMENTED review does not
// undo an approval or a request for changes. Logins compare without case, as GitHub's do;
// reviews without an author (deleted users) are skipped.
func LatestReviews(reviews []Review) []Review {
	idx := map[string]int{}
	var out []Review
	for _, r := range reviews {
		switch r.State {
		case ReviewApproved, ReviewChangesRequested, ReviewDismissed:
		default:
			continue
		}
		if r.Author == "" {
			continue
		}
		k := strings.ToLower(r.Author)
		if i, ok := idx[k]; ok {
			out[i] = r
			continue
		}
		idx[k] = len(out)
		out = append(out, r)
	}
	return out
}

// Comment is pr's comment with id among those read, or nil.
func (pr *PullRequest) Comment(id int64) *IssueComment {
	for i := range pr.Comments {
		if c := &pr.Comments[i]; id != 0 && c.ID == id {
			return c
		}
	}
	return nil
}
