package ghapi

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// Snapshot is everything one invocation reads about a pull request, in one query.
type Snapshot struct {
	Viewer        string
	DefaultBranch string
	// Config is the config on the default branch; nil when it has no config file.
	Config   *Config
	Facts    *model.Facts
	Comments []state.Comment // oldest first
	// State is what was read of the state branch: its head, the subject's file and
	// index.json, each with the commit that last changed it.
	State state.BranchRead
	// Warnings are what was not read in full (SnapshotIssue), for the job log.
	Warnings []string
	// Statuses are the action's own commit statuses on a pull request's head, by context;
	// they are not among the facts' checks.
	Statuses map[string]string

	commentNodes map[int64]string // the comments read: id → node id
	gap          *gap             // the comments not read between the oldest and the newest
}

// Blob is a file read from git.
type Blob struct {
	OID       string
	Text      string
	Truncated bool
}

// actor is a user or an app as GraphQL returns it; its type tells a person (User) from
// an app (Bot), and login spells it as REST does.
type actor struct {
	Login    string
	Typename string `graphql:"__typename"`
}

// Login spells an account's login as REST, webhooks and GitHub's pages do, whichever API
// returned it. GraphQL's Bot.login drops the "[bot]" suffix that the same account has
// everywhere else (the Actions token is the Bot "github-actions" as a comment's author,
// and "github-actions[bot]" as the REST author, the webhook sender and GraphQL's
// viewer; an app installation is "<slug>" and "<slug>[bot]"). So the suffix is added
// to a Bot's login only: a User named "github-actions" stays "github-actions", another
// account than the action's. Every login the adapter hands on goes through here, so
// logins compare as plain strings (gates compare them case-insensitively, as GitHub).
func Login(login, typename string) string {
	if typename == "Bot" && login != "" && !strings.HasSuffix(login, "[bot]") {
		return login + "[bot]"
	}
	return login
}

type checkContext struct {
	Typename string `graphql:"__typename"`
	CheckRun struct {
		Name       string
		Status     string
		Conclusion string
		// The suite tells a re-run of the same check (same app, same suite) from another
		// check of the same name; its workflow run names the Actions workflow.
		CheckSuite struct {
			Id          string
			App         *struct{ Id string }
			WorkflowRun *struct {
				// Url ends in the run's id, which databaseId (an Int) cannot hold.
				Url      string
				Workflow struct{ Name string }
			}
		}
	} `graphql:"... on CheckRun"`
	StatusContext struct {
		Context string
		State   string
	} `graphql:"... on StatusContext"`
}

type prFields struct {
	Number            int
	Title             string
	Body              string // closing keywords, where GitHub links no issue
	State             string
	IsDraft           bool
	Merged            bool
	MergedBy          *actor
	Mergeable         string
	MergeStateStatus  string
	IsInMergeQueue    bool
	MergeQueueEntry   *struct{ Position int }
	Author            *actor
	BaseRefName       string
	HeadRefName       string
	HeadRefOid        string
	IsCrossRepository bool
	HeadRepository    *struct{ NameWithOwner string } // null once a fork is deleted
	Labels            struct {
		PageInfo pageForward
		Nodes    []labelNode
	} `graphql:"labels(first: 100)"`
	Reviews struct {
		PageInfo pageBackward
		Nodes    []reviewNode
	} `graphql:"reviews(last: 100)"`
	Commits struct {
		Nodes []struct {
			Commit struct {
				Oid               string
				StatusCheckRollup *struct {
					State    string
					Contexts struct {
						PageInfo pageForward
						Nodes    []checkContext
					} `graphql:"contexts(first: 100)"`
				}
			}
		}
	} `graphql:"commits(last: 1)"`
	Contributors contributorsConn `graphql:"contributors: commits(last: 100)"`
	// The oldest comments, where the state comment is (the action posts it on the first
	// event that concerns the subject), and the newest; those between are read only back
	// to what the state has read.
	Comments struct {
		PageInfo pageForward
		Nodes    []commentNode
	} `graphql:"comments(first: 100)"`
	Recent struct {
		PageInfo pageBackward
		Nodes    []commentNode
	} `graphql:"recent: comments(last: 100)"`
	CreatedAt githubv4.DateTime
	// The latest events that start pipelines or make approvals stale; older ones matter
	// only as far as newer ones of the same kind do not supersede them.
	TimelineItems struct {
		PageInfo pageBackward // older pages are read page by page
		Nodes    []timelineNode
	} `graphql:"timelineItems(last: 100, itemTypes: [LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT, READY_FOR_REVIEW_EVENT, CONVERT_TO_DRAFT_EVENT, BASE_REF_CHANGED_EVENT, REVIEW_DISMISSED_EVENT])"`
	// The issues it closes when merged (close_issue's linked_issue).
	ClosingIssuesReferences *closingRefs `graphql:"closingIssuesReferences(first: 10)"` // more are read page by page
}

// timelineNode is one of the timeline events the engine reads.
type timelineNode struct {
	Typename     string `graphql:"__typename"`
	LabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     labelNode
		Actor     *actor // who added the label (a human stage's `from` with wait_for: label)
	} `graphql:"... on LabeledEvent"`
	UnlabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     labelNode
	} `graphql:"... on UnlabeledEvent"`
	ReopenedEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ReopenedEvent"`
	ReadyForReviewEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ReadyForReviewEvent"`
	ConvertToDraftEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ConvertToDraftEvent"`
	BaseRefChangedEvent struct {
		CreatedAt      githubv4.DateTime
		CurrentRefName string
	} `graphql:"... on BaseRefChangedEvent"`
	// https://docs.github.com/en/graphql/reference/objects#reviewdismissedevent
	ReviewDismissedEvent struct {
		CreatedAt githubv4.DateTime
		Actor     *actor // who dismissed it (a human stage's `from` with wait_for: dismiss)
		Review    *struct{ Author *actor }
	} `graphql:"... on ReviewDismissedEvent"`
}

// timelineEvent is what the engine reads of a timeline node.
func (n timelineNode) event() (model.TimelineEvent, bool) {
	switch n.Typename {
	case "LabeledEvent":
		return model.TimelineEvent{Kind: model.TimelineLabeled, Label: n.LabeledEvent.Label.Name, At: n.LabeledEvent.CreatedAt.Time,
			Actor: login(n.LabeledEvent.Actor)}, true
	case "UnlabeledEvent":
		return model.TimelineEvent{Kind: model.TimelineUnlabeled, Label: n.UnlabeledEvent.Label.Name, At: n.UnlabeledEvent.CreatedAt.Time}, true
	case "ReopenedEvent":
		return model.TimelineEvent{Kind: model.TimelineReopened, At: n.ReopenedEvent.CreatedAt.Time}, true
	case "ReadyForReviewEvent":
		return model.TimelineEvent{Kind: model.TimelineReadyForReview, At: n.ReadyForReviewEvent.CreatedAt.Time}, true
	case "ConvertToDraftEvent":
		return model.TimelineEvent{Kind: model.TimelineConvertedToDraft, At: n.ConvertToDraftEvent.CreatedAt.Time}, true
	case "BaseRefChangedEvent":
		return model.TimelineEvent{Kind: model.TimelineBaseChanged, Label: n.BaseRefChangedEvent.CurrentRefName, At: n.BaseRefChangedEvent.CreatedAt.Time}, true
	case "ReviewDismissedEvent":
		ev := model.TimelineEvent{Kind: model.TimelineReviewDismissed, At: n.ReviewDismissedEvent.CreatedAt.Time, Actor: login(n.ReviewDismissedEvent.Actor)}
		if r := n.ReviewDismissedEvent.Review; r != nil {
			ev.Label = login(r.Author)
		}
		return ev, true
	}
	return model.TimelineEvent{}, false
}

// Connections hold 100 items a page; the rare subject with more is read on with the
// queries of their own, so that no review, check, label or comment goes unseen.
type pageForward struct {
	HasNextPage bool
	EndCursor   string
}

type pageBackward struct {
	HasPreviousPage bool
	StartCursor     string
}

type labelNode struct{ Name string }

type reviewNode struct {
	Author                    *actor
	State                     string
	Body                      string
	Editor                    *actor // who last edited the body (anyone with write access may)
	LastEditedAt              *githubv4.DateTime
	IncludesCreatedEdit       bool
	SubmittedAt               *githubv4.DateTime
	Commit                    *struct{ Oid string }
	AuthorCanPushToRepository bool
}

// commentNode is an issue comment: fullDatabaseId, not databaseId (an Int, which
// comment ids outgrew), and who last edited it, for state.Check.
type commentNode struct {
	Id                  string // the node id: the state remembers its state comment's
	FullDatabaseId      bigInt
	Author              *actor
	ViewerDidAuthor     bool
	Editor              *actor
	LastEditedAt        *githubv4.DateTime
	IncludesCreatedEdit bool
	Body                string
	CreatedAt           githubv4.DateTime
}

type factsQuery struct {
	Viewer     actor
	Repository struct {
		Id               string
		DefaultBranchRef *struct {
			Name   string
			Target *struct {
				Oid    string
				Commit struct {
					ConfigLog struct {
						Nodes []struct{ CommittedDate githubv4.DateTime }
					} `graphql:"configLog: history(first: 1, path: $configPath)"`
					ConfigDirLog struct {
						Nodes []struct{ CommittedDate githubv4.DateTime }
					} `graphql:"configDirLog: history(first: 1, path: $configDirPath)"`
				} `graphql:"... on Commit"`
			}
		}
		StateRef *stateRef `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
		Config   *struct {
			Blob blobFields `graphql:"... on Blob"`
		} `graphql:"config: object(expression: $configExpr)"`
		ConfigDir *struct {
			Tree treeFields `graphql:"... on Tree"`
		} `graphql:"configDir: object(expression: $configDirExpr)"`
		PullRequest *prFields `graphql:"pullRequest(number: $number)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// Snapshot is SnapshotState with the default state branch.
func (c *Client) Snapshot(ctx context.Context, number int, defaultBranch, configPath string) (*Snapshot, error) {
	return c.SnapshotState(ctx, number, defaultBranch, configPath, lang.DefaultStateBranch)
}

// SnapshotState reads the config at defaultBranch:configPath with the *.yaml files of its
// directory (ConfigDir), the pull request number with its reviews, checks, labels and
// comments, the viewer, and the state branch stateBranch (its head, the pull request's
// state file and index.json, each with the commit that last changed it), in one
// GraphQL query.
// https://docs.github.com/en/graphql/reference/objects#pullrequest
func (c *Client) SnapshotState(ctx context.Context, number int, defaultBranch, configPath, stateBranch string) (*Snapshot, error) {
	if defaultBranch == "" {
		return nil, fmt.Errorf("reading %s/%s#%d: the default branch is unknown", c.Owner, c.Repo, number)
	}
	var q factsQuery
	dirExpr := defaultBranch + ":" + ConfigDir(configPath)
	if ConfigDir(configPath) == "" {
		dirExpr = defaultBranch + ":" + configPath // a file: the Tree fragment reads nothing
	}
	vars := map[string]any{
		"owner":         githubv4.String(c.Owner),
		"name":          githubv4.String(c.Repo),
		"number":        githubv4.Int(number),
		"configExpr":    githubv4.String(defaultBranch + ":" + configPath),
		"configDirExpr": githubv4.String(dirExpr),
		"configPath":    githubv4.String(configPath),
		"configDirPath": githubv4.String(configLogPath(configPath)),
	}
	subjectFile := state.SubjectFile(true, number)
	stateVars(vars, stateBranch, subjectFile)
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	s := &Snapshot{Viewer: login(&q.Viewer), DefaultBranch: defaultBranch}
	s.State = branchRead(stateBranch, subjectFile, q.Repository.StateRef)
	s.State.RepoID = q.Repository.Id
	if q.Repository.DefaultBranchRef != nil {
		s.DefaultBranch = q.Repository.DefaultBranchRef.Name
		if t := q.Repository.DefaultBranchRef.Target; t != nil {
			s.State.DefaultHead = t.Oid
		}
	}
	var file *blobFields
	if q.Repository.Config != nil {
		file = &q.Repository.Config.Blob
	}
	var dir *treeFields
	if q.Repository.ConfigDir != nil {
		dir = &q.Repository.ConfigDir.Tree
	}
	cfg, err := newConfig(configPath, file, dir)
	if err != nil {
		return nil, fmt.Errorf("reading the config on %s: %w", s.DefaultBranch, err)
	}
	s.Config = cfg
	s.Facts = &model.Facts{Repo: c.Owner + "/" + c.Repo, DefaultBranch: s.DefaultBranch, Viewer: s.Viewer, ActionsToken: c.actionsToken(s.Viewer)}
	if t := q.Repository.DefaultBranchRef; t != nil && t.Target != nil {
		s.Facts.ConfigSince = configSince(t.Target.Commit.ConfigLog.Nodes, t.Target.Commit.ConfigDirLog.Nodes)
	}
	pr := q.Repository.PullRequest
	if pr == nil {
		return s, nil
	}
	if err := c.readRest(ctx, number, pr); err != nil {
		return nil, err
	}
	s.Facts.PR = pullRequest(pr, c.Owner+"/"+c.Repo)
	s.Statuses = ownStatuses(pr)
	linkFromBody(s.Facts.PR, pr.Body, s.Facts.Repo, s.DefaultBranch)
	s.addComments(pr.Comments.Nodes)
	s.addComments(pr.Recent.Nodes)
	s.gap = commentsGap(pr)
	return s, nil
}

// stateComment is what the state store reads of a comment.
func stateComment(n commentNode) state.Comment {
	return state.Comment{
		ID:              int64(n.FullDatabaseId),
		Author:          login(n.Author),
		ViewerDidAuthor: n.ViewerDidAuthor,
		Edited:          n.LastEditedAt != nil || n.IncludesCreatedEdit,
		Editor:          login(n.Editor),
		Body:            n.Body,
	}
}

func pullRequest(pr *prFields, repo string) *model.PullRequest {
	out := &model.PullRequest{
		Number:     pr.Number,
		Title:      pr.Title,
		State:      strings.ToLower(pr.State),
		Draft:      pr.IsDraft,
		Author:     login(pr.Author),
		BaseRef:    pr.BaseRefName,
		HeadRef:    pr.HeadRefName,
		CrossRepo:  pr.IsCrossRepository,
		HeadSHA:    pr.HeadRefOid,
		Mergeable:  strings.ToLower(pr.Mergeable),
		MergeState: pr.MergeStateStatus,
	}
	if pr.IsInMergeQueue && pr.MergeQueueEntry != nil {
		out.InMergeQueue, out.QueuePosition = true, pr.MergeQueueEntry.Position
	}
	if pr.HeadRepository != nil {
		out.HeadRepo = pr.HeadRepository.NameWithOwner
	}
	if pr.Merged {
		out.State, out.MergedBy = model.PRMerged, login(pr.MergedBy)
	}
	for _, l := range pr.Labels.Nodes {
		out.Labels = append(out.Labels, l.Name)
	}
	out.CreatedAt = pr.CreatedAt.Time
	out.Contributors = contributors(pr.Contributors)
	out.CoAuthors = coAuthors(pr.Contributors, out.Author)
	out.Body = pr.Body
	if pr.ClosingIssuesReferences != nil {
		for _, n := range pr.ClosingIssuesReferences.Nodes {
			// An issue of another repository ("Fixes other/repo#3") is not this one's #3.
			if strings.EqualFold(n.Repository.NameWithOwner, repo) {
				out.LinkedIssues = append(out.LinkedIssues, n.Number)
			}
		}
	}
	for _, n := range pr.TimelineItems.Nodes {
		if ev, ok := n.event(); ok {
			out.Timeline = append(out.Timeline, ev)
		}
	}
	for _, r := range pr.Reviews.Nodes {
		rv := model.Review{State: r.State, Body: r.Body, CanPush: r.AuthorCanPushToRepository}
		if r.Author != nil {
			rv.Author, rv.IsBot = login(r.Author), r.Author.Typename == "Bot"
		}
		if model.EditedByOther(r.LastEditedAt != nil || r.IncludesCreatedEdit, rv.Author, login(r.Editor)) {
			rv.EditedBy = cmp.Or(login(r.Editor), "ghost")
		}
		if r.Commit != nil {
			rv.CommitSHA = r.Commit.Oid
		}
		if r.SubmittedAt != nil {
			rv.SubmittedAt = r.SubmittedAt.Time
		}
		out.Reviews = append(out.Reviews, rv)
	}
	for _, n := range pr.Commits.Nodes {
		if n.Commit.Oid != pr.HeadRefOid || n.Commit.StatusCheckRollup == nil {
			continue
		}
		for _, cx := range n.Commit.StatusCheckRollup.Contexts.Nodes {
			if cx.Typename == "StatusContext" && IsOwnStatus(cx.StatusContext.Context) {
				continue // the action's own: no gate waits on it
			}
			out.Checks = append(out.Checks, checkResult(cx))
		}
	}
	return out
}

// checkResult normalises a check run or a commit status.
// https://docs.github.com/en/graphql/reference/enums#checkconclusionstate
func checkResult(cx checkContext) model.CheckResult {
	if cx.Typename == "StatusContext" {
		r := model.CheckResult{Name: cx.StatusContext.Context, Kind: "status", Conclusion: cx.StatusContext.State}
		switch cx.StatusContext.State {
		case "SUCCESS":
			r.State = model.CheckSuccess
		case "FAILURE", "ERROR":
			r.State = model.CheckFailure
		default: // PENDING, EXPECTED
			r.State = model.CheckPending
		}
		return r
	}
	cs := cx.CheckRun.CheckSuite
	r := model.CheckResult{Name: cx.CheckRun.Name, Kind: "check_run", Conclusion: cx.CheckRun.Conclusion, Suite: cs.Id}
	if cs.App != nil {
		r.App = cs.App.Id
	}
	if cs.WorkflowRun != nil {
		r.Workflow, r.RunID = cs.WorkflowRun.Workflow.Name, runIDOf(cs.WorkflowRun.Url)
	}
	switch {
	case cx.CheckRun.Status != "COMPLETED":
		r.State = model.CheckPending
	case cx.CheckRun.Conclusion == "SUCCESS" || cx.CheckRun.Conclusion == "NEUTRAL" || cx.CheckRun.Conclusion == "SKIPPED":
		r.State = model.CheckSuccess
	default: // FAILURE, CANCELLED, TIMED_OUT, ACTION_REQUIRED, STARTUP_FAILURE, STALE
		r.State = model.CheckFailure
	}
	return r
}

func login(a *actor) string {
	if a == nil {
		return ""
	}
	return Login(a.Login, a.Typename)
}

// runIDOf is the id of the workflow run at url (…/actions/runs/ID), or 0.
func runIDOf(url string) int64 {
	_, id, ok := strings.Cut(url, "/actions/runs/")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(id, "/"), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
