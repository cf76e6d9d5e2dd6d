package ghapi

import (
	"context"
	"fmt"
	"net/url"

	"github.com/google/go-github/v60/github"
	"github.com/shurcooL/githubv4"
)

// What `doctor` reads of a repository. Every call here is a read: doctor must be safe to
// run against a live repository, so a scope that can only be shown by writing is not
// probed here at all.

// RepoSettings are the repository's settings the action depends on.
type RepoSettings struct {
	DefaultBranch string
	// MergeMethods are the repository's allow_merge_commit, allow_squash_merge and
	// allow_rebase_merge, by the merge_pr method they allow (merge, squash, rebase).
	MergeMethods map[string]bool
	// MergeQueue: the default branch takes pull requests through GitHub's merge queue.
	MergeQueue bool
}

// RepoSettings reads GET /repos/{owner}/{repo}.
// https://docs.github.com/rest/repos/repos#get-a-repository
func (c *Client) RepoSettings(ctx context.Context) (*RepoSettings, error) {
	r, _, err := c.rest.Repositories.Get(ctx, c.Owner, c.Repo)
	if err != nil {
		return nil, fmt.Errorf("reading %s/%s: %w", c.Owner, c.Repo, err)
	}
	out := &RepoSettings{DefaultBranch: r.GetDefaultBranch(), MergeMethods: map[string]bool{
		"merge": r.GetAllowMergeCommit(), "squash": r.GetAllowSquashMerge(), "rebase": r.GetAllowRebaseMerge(),
	}}
	// https://docs.github.com/graphql/reference/objects#repository (mergeQueue)
	var q struct {
		Repository struct {
			MergeQueue *struct{ Id githubv4.ID } `graphql:"mergeQueue(branch: $branch)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo), "branch": githubv4.String(out.DefaultBranch)}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading whether %s of %s/%s requires the merge queue: %w", out.DefaultBranch, c.Owner, c.Repo, err)
	}
	out.MergeQueue = q.Repository.MergeQueue != nil
	return out, nil
}

// ReadProbes are the read scopes ProbeRead can show, each by a REST read that GitHub
// refuses, whatever the repository holds, to a token without that scope (with
// X-Accepted-GitHub-Permissions, which scopeTransport turns into the scope to grant).
var ReadProbes = []string{"contents", "pull-requests", "statuses", "checks", "actions"}

// ProbeRead makes the REST read that needs scope (a workflow's name: pull-requests)
// on branch, and returns GitHub's refusal, or nil when it answered. It returns what it
// asked as well, for the report.
func (c *Client) ProbeRead(ctx context.Context, scope, branch string) (asked string, err error) {
	one := &github.ListOptions{PerPage: 1}
	switch scope {
	case "contents":
		asked = "GET /repos/{owner}/{repo}/git/ref/heads/" + branch
		_, _, err = c.rest.Git.GetRef(ctx, c.Owner, c.Repo, "heads/"+branch)
	case "pull-requests":
		asked = "GET /repos/{owner}/{repo}/pulls"
		_, _, err = c.rest.PullRequests.List(ctx, c.Owner, c.Repo, &github.PullRequestListOptions{ListOptions: *one})
	case "statuses":
		asked = "GET /repos/{owner}/{repo}/commits/" + branch + "/status"
		_, _, err = c.rest.Repositories.GetCombinedStatus(ctx, c.Owner, c.Repo, branch, one)
	case "checks":
		asked = "GET /repos/{owner}/{repo}/commits/" + branch + "/check-runs"
		_, _, err = c.rest.Checks.ListCheckRunsForRef(ctx, c.Owner, c.Repo, branch, &github.ListCheckRunsOptions{ListOptions: *one})
	case "actions":
		asked = "GET /repos/{owner}/{repo}/actions/runs"
		_, _, err = c.rest.Actions.ListRepositoryWorkflowRuns(ctx, c.Owner, c.Repo, &github.ListWorkflowRunsOptions{ListOptions: *one})
	default:
		return "", fmt.Errorf("no read probe for scope %q", scope)
	}
	return asked, err
}

// BranchProtected reads whether branch is protected (GET .../branches/{branch}); exists is
// false when the branch does not exist yet.
// https://docs.github.com/rest/branches/branches#get-a-branch
func (c *Client) BranchProtected(ctx context.Context, branch string) (exists, protected bool, err error) {
	b, resp, err := c.rest.Repositories.GetBranch(ctx, c.Owner, c.Repo, branch, 0)
	if resp != nil && resp.StatusCode == 404 {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("reading branch %s of %s/%s: %w", branch, c.Owner, c.Repo, err)
	}
	return true, b.GetProtected(), nil
}

// BranchRule is one rule that applies to a branch, with the ruleset it comes from.
type BranchRule struct {
	Type              string `json:"type"` // update, creation, deletion, non_fast_forward, pull_request, ...
	RulesetSourceType string `json:"ruleset_source_type"`
	RulesetSource     string `json:"ruleset_source"` // owner/name of a repository, or an organization
	RulesetID         int64  `json:"ruleset_id"`
}

// BranchRules reads the rules of the active rulesets that apply to branch, whether or not it
// exists (GET .../rules/branches/{branch}). GitHub does not say whether the caller may bypass
// them. go-github's GetRulesForBranch neither escapes the branch nor keeps the rulesets.
// https://docs.github.com/rest/repos/rules#get-rules-for-a-branch
func (c *Client) BranchRules(ctx context.Context, branch string) ([]BranchRule, error) {
	var all []BranchRule
	for page := 1; page != 0; {
		u := fmt.Sprintf("repos/%s/%s/rules/branches/%s?per_page=100&page=%d", c.Owner, c.Repo, url.PathEscape(branch), page)
		req, err := c.rest.NewRequest("GET", u, nil)
		if err != nil {
			return nil, err
		}
		var rules []BranchRule
		resp, err := c.rest.Do(ctx, req, &rules)
		if err != nil {
			return nil, fmt.Errorf("reading the rules of branch %s of %s/%s: %w", branch, c.Owner, c.Repo, err)
		}
		all = append(all, rules...)
		page = resp.NextPage
	}
	return all, nil
}

// WorkflowFile is one file of .github/workflows on a branch.
type WorkflowFile struct {
	Path string
	Blob
}

type workflowsQuery inRepo[struct {
	Dir *struct {
		Tree treeFields `graphql:"... on Tree"`
	} `graphql:"dir: object(expression: $expr)"`
}]

// WorkflowFiles reads the *.yml and *.yaml files of .github/workflows on branch, in one
// GraphQL query; none when the directory does not exist.
func (c *Client) WorkflowFiles(ctx context.Context, branch string) ([]WorkflowFile, error) {
	var q workflowsQuery
	vars := map[string]any{
		"owner": githubv4.String(c.Owner),
		"name":  githubv4.String(c.Repo),
		"expr":  githubv4.String(branch + ":.github/workflows"),
	}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading .github/workflows on %s of %s/%s: %w", branch, c.Owner, c.Repo, err)
	}
	if q.Repository.Dir == nil {
		return nil, nil
	}
	var out []WorkflowFile
	for _, e := range q.Repository.Dir.Tree.Entries {
		if e.Type != "blob" || e.Object == nil {
			continue
		}
		out = append(out, WorkflowFile{Path: ".github/workflows/" + e.Name, Blob: e.Object.Blob.blob()})
	}
	return out, nil
}
