package ghapi

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/state"
)

// The facts of an issue: the subject of `scope: issue` runs. The issue and the pull
// requests associated with its runs are read in the one query that reads the config and
// the state branch, each pull request under its own alias (pr0: pullRequest(number: $pr0),
// …) with the fields a pull request's own snapshot reads.

// issueFields is what is read of an issue.
type issueFields struct {
	Number    int
	Title     string
	State     string
	Author    *actor
	CreatedAt githubv4.DateTime
	Labels    struct {
		PageInfo pageForward
		Nodes    []labelNode
	} `graphql:"labels(first: 100)"`
	Comments struct {
		PageInfo pageForward
		Nodes    []commentNode
	} `graphql:"comments(first: 100)"`
	Recent struct {
		PageInfo pageBackward
		Nodes    []commentNode
	} `graphql:"recent: comments(last: 100)"`
	TimelineItems struct {
		PageInfo pageBackward
		Nodes    []issueTimelineNode
	} `graphql:"timelineItems(last: 100, itemTypes: [LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT])"`
}

// issueTimelineNode is one event of an issue's timeline the engine reads (IssueTimelineItems
// has no draft or base events).
type issueTimelineNode struct {
	Typename     string `graphql:"__typename"`
	LabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     labelNode
	} `graphql:"... on LabeledEvent"`
	UnlabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     labelNode
	} `graphql:"... on UnlabeledEvent"`
	ReopenedEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ReopenedEvent"`
}

// issueRepoFields are the fields of the repository the issue query reads besides the pull
// requests' aliases.
type issueRepoFields struct {
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
	Issue *issueFields `graphql:"issue(number: $number)"`
}

// prAliases returns a struct type with the fields of base and, for each of prs, a field
// PR<i> read as `pr<i>: pullRequest(number: $pr<i>)`, and sets the variables.
func prAliases(base reflect.Type, prs []int, vars map[string]any) reflect.Type {
	var fields []reflect.StructField
	if base != nil {
		for i := 0; i < base.NumField(); i++ {
			fields = append(fields, base.Field(i))
		}
	}
	for i, n := range prs {
		name := "pr" + strconv.Itoa(i)
		fields = append(fields, reflect.StructField{Name: "PR" + strconv.Itoa(i), Type: reflect.TypeOf((*prFields)(nil)),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: pullRequest(number: $%s)"`, name, name))})
		vars[name] = githubv4.Int(n)
	}
	return reflect.StructOf(fields)
}

// readAliases turns the aliases of prAliases read into repo (a struct value) into pull
// requests, reading the pages past the first of each as a pull request's snapshot does.
func (c *Client) readAliases(ctx context.Context, repo reflect.Value, prs []int) (map[int]*engine.PullRequest, error) {
	out := map[int]*engine.PullRequest{}
	for i, n := range prs {
		pr, _ := repo.FieldByName("PR" + strconv.Itoa(i)).Interface().(*prFields)
		if pr == nil || pr.Number != n {
			continue // not a pull request of this repository
		}
		if err := c.readRest(ctx, n, pr); err != nil {
			return nil, err
		}
		p := pullRequest(pr, c.Owner+"/"+c.Repo)
		for _, cm := range pr.Comments.Nodes {
			sc := stateComment(cm)
			if sc.ViewerDidAuthor && !sc.EditedByOther() {
				p.Posted = append(p.Posted, engine.PostedEffects(cm.Body)...)
			}
			p.Comments = append(p.Comments, issueComment(cm))
		}
		out[n] = p
	}
	return out, nil
}

// uniquePRs sorts prs and drops repeats and numbers below 1.
func uniquePRs(prs []int) []int {
	var out []int
	seen := map[int]bool{}
	for _, n := range prs {
		if n > 0 && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// SnapshotIssue is SnapshotState for issue number: the config, the issue with its labels,
// comments and timeline, the state branch (the issue's state file, issue-N.json), and the
// pull requests prs (those associated with its runs, as far as the caller knows them), in
// one GraphQL query. A pull request of prs that does not exist is left out of Facts.PRs;
// the query fails as GitHub fails it (a number that is not a pull request is an error).
func (c *Client) SnapshotIssue(ctx context.Context, number int, prs []int, defaultBranch, configPath, stateBranch string) (*Snapshot, error) {
	return c.SnapshotIssueWith(ctx, number, prs, nil, defaultBranch, configPath, stateBranch)
}

// SnapshotIssueWith is SnapshotIssue that also reads others, pull requests of other
// repositories (those of multi-PR runs), in the same query: into
// Facts.Others.
func (c *Client) SnapshotIssueWith(ctx context.Context, number int, prs []int, others []engine.PRRef, defaultBranch, configPath, stateBranch string) (*Snapshot, error) {
	if defaultBranch == "" {
		return nil, fmt.Errorf("reading %s/%s#%d: the default branch is unknown", c.Owner, c.Repo, number)
	}
	dirExpr := defaultBranch + ":" + ConfigDir(configPath)
	if ConfigDir(configPath) == "" {
		dirExpr = defaultBranch + ":" + configPath
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
	subjectFile := state.SubjectFile(false, number)
	stateVars(vars, stateBranch, subjectFile)
	prs = uniquePRs(prs)
	repoType := prAliases(reflect.TypeOf(issueRepoFields{}), prs, vars)
	repos := otherRepos(c.Owner+"/"+c.Repo, others)
	qType := reflect.StructOf(append([]reflect.StructField{
		{Name: "Viewer", Type: reflect.TypeOf(actor{})},
		{Name: "Repository", Type: repoType, Tag: repoTag},
	}, otherAliases(repos, vars)...))
	qv := reflect.New(qType)
	if err := c.gql.Query(ctx, qv.Interface(), vars); err != nil {
		return nil, fmt.Errorf("reading %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	viewer := qv.Elem().Field(0).Interface().(actor)
	repoV := qv.Elem().Field(1)
	var repo issueRepoFields
	rv := reflect.ValueOf(&repo).Elem()
	for i := 0; i < rv.NumField(); i++ {
		rv.Field(i).Set(repoV.Field(i))
	}
	s := &Snapshot{Viewer: login(&viewer), DefaultBranch: defaultBranch}
	s.State = branchRead(stateBranch, subjectFile, repo.StateRef)
	s.State.RepoID = repo.Id
	if repo.DefaultBranchRef != nil {
		s.DefaultBranch = repo.DefaultBranchRef.Name
		if t := repo.DefaultBranchRef.Target; t != nil {
			s.State.DefaultHead = t.Oid
		}
	}
	cfg, err := repo.config(configPath)
	if err != nil {
		return nil, fmt.Errorf("reading the config on %s: %w", s.DefaultBranch, err)
	}
	s.Config = cfg
	s.Facts = &engine.Facts{Repo: c.Owner + "/" + c.Repo, DefaultBranch: s.DefaultBranch, Viewer: s.Viewer, ActionsToken: c.actionsToken(s.Viewer)}
	if t := repo.DefaultBranchRef; t != nil && t.Target != nil {
		s.Facts.ConfigSince = configSince(t.Target.Commit.ConfigLog.Nodes, t.Target.Commit.ConfigDirLog.Nodes)
	}
	if s.Facts.PRs, err = c.readAliases(ctx, repoV, prs); err != nil {
		return nil, err
	}
	if s.Facts.Others, err = c.readOthers(ctx, qv.Elem(), repos); err != nil {
		return nil, err
	}
	is := repo.Issue
	if is == nil {
		return s, nil
	}
	warnings, err := c.readIssueRest(ctx, number, is)
	if err != nil {
		return nil, err
	}
	s.Warnings = append(s.Warnings, warnings...)
	s.Facts.Issue = issueFacts(s, is)
	return s, nil
}

// config reads the config at configPath, a file or a directory, from what repo read.
func (repo *issueRepoFields) config(configPath string) (*Config, error) {
	var file *blobFields
	if repo.Config != nil {
		file = &repo.Config.Blob
	}
	var dir *treeFields
	if repo.ConfigDir != nil {
		dir = &repo.ConfigDir.Tree
	}
	return newConfig(configPath, file, dir)
}

// issueFacts returns the issue is as the engine sees it, and adds its comments to s.
func issueFacts(s *Snapshot, is *issueFields) *engine.Issue {
	out := &engine.Issue{Number: is.Number, Title: is.Title, State: strings.ToLower(is.State), Author: login(is.Author), CreatedAt: is.CreatedAt.Time}
	for _, l := range is.Labels.Nodes {
		out.Labels = append(out.Labels, l.Name)
	}
	for _, n := range is.TimelineItems.Nodes {
		switch n.Typename {
		case "LabeledEvent":
			out.Timeline = append(out.Timeline, engine.TimelineEvent{Kind: engine.TimelineLabeled, Label: n.LabeledEvent.Label.Name, At: n.LabeledEvent.CreatedAt.Time})
		case "UnlabeledEvent":
			out.Timeline = append(out.Timeline, engine.TimelineEvent{Kind: engine.TimelineUnlabeled, Label: n.UnlabeledEvent.Label.Name, At: n.UnlabeledEvent.CreatedAt.Time})
		case "ReopenedEvent":
			out.Timeline = append(out.Timeline, engine.TimelineEvent{Kind: engine.TimelineReopened, At: n.ReopenedEvent.CreatedAt.Time})
		}
	}
	for _, n := range is.Comments.Nodes {
		sc := stateComment(n)
		s.Comments = append(s.Comments, sc)
		if sc.ViewerDidAuthor && !sc.EditedByOther() {
			out.Posted = append(out.Posted, engine.PostedEffects(n.Body)...)
		}
		out.Comments = append(out.Comments, issueComment(n))
	}
	return out
}

// ReadPRs reads the pull requests prs in one query, each under its own alias, as a pull
// request's snapshot reads it: for an issue whose state names pull requests the snapshot
// did not read.
func (c *Client) ReadPRs(ctx context.Context, prs []int) (map[int]*engine.PullRequest, error) {
	prs = uniquePRs(prs)
	if len(prs) == 0 {
		return map[int]*engine.PullRequest{}, nil
	}
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo)}
	repoType := prAliases(nil, prs, vars)
	qType := reflect.StructOf([]reflect.StructField{
		{Name: "Repository", Type: repoType, Tag: repoTag},
	})
	qv := reflect.New(qType)
	if err := c.gql.Query(ctx, qv.Interface(), vars); err != nil {
		return nil, fmt.Errorf("reading pull requests %v of %s/%s: %w", prs, c.Owner, c.Repo, err)
	}
	return c.readAliases(ctx, qv.Elem().Field(0), prs)
}
