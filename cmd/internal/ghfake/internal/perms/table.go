package perms

// What each REST operation and GraphQL type or field needs of an installation token, as
// GitHub's "Permissions required for GitHub Apps" page lists it
// (https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps),
// written as GitHub's X-Accepted-GitHub-Permissions header writes it (see Need).
// octokit/app-permissions' machine-readable scrape of that page keeps one permission per
// endpoint, the last listed, so it is not the source here: it gives workflow runs and
// check runs as contents, which the page lists under Actions and Checks. Where the page
// lists an endpoint under two permissions, either one suffices (issue comments and labels:
// issues or pull_requests). TestEveryOperationHasAPermission keeps REST
// complete.

// REST are the scopes each operation GitHub describes needs, by
// operationId.
var REST = map[string]Need{
	"pulls/get":                        "pull_requests=read",
	"pulls/merge":                      "contents=write",
	"pulls/list-reviews":               "pull_requests=read",
	"pulls/request-reviewers":          "pull_requests=write",
	"pulls/update-branch":              "pull_requests=write",
	"pulls/list":                       "pull_requests=read",
	"pulls/create":                     "pull_requests=write",
	"pulls/list-files":                 "pull_requests=read",
	"pulls/create-review":              "pull_requests=write",
	"pulls/list-requested-reviewers":   "pull_requests=read",
	"pulls/remove-requested-reviewers": "pull_requests=write",

	"issues/add-labels":           "issues=write; pull_requests=write",
	"issues/remove-label":         "issues=write; pull_requests=write",
	"issues/remove-all-labels":    "issues=write; pull_requests=write",
	"issues/set-labels":           "issues=write; pull_requests=write",
	"issues/list-labels-on-issue": "issues=read; pull_requests=read",
	"issues/create-comment":       "issues=write; pull_requests=write",
	"issues/update-comment":       "issues=write; pull_requests=write",
	"issues/delete-comment":       "issues=write; pull_requests=write",
	"issues/list-comments":        "issues=read; pull_requests=read",
	"issues/get-comment":          "issues=read; pull_requests=read",
	"issues/add-assignees":        "issues=write; pull_requests=write",
	"issues/remove-assignees":     "issues=write; pull_requests=write",
	"issues/update":               "issues=write; pull_requests=write",
	"issues/get":                  "issues=read; pull_requests=read",
	"issues/create":               "issues=write",

	"reactions/create-for-issue-comment": "issues=write; pull_requests=write",

	"repos/get-content":                    "contents=read",
	"repos/create-or-update-file-contents": "contents=write",
	"git/get-ref":                          "contents=read",
	"git/update-ref":                       "contents=write",
	"git/create-ref":                       "contents=write",
	"git/delete-ref":                       "contents=write",
	"git/create-blob":                      "contents=write",
	"git/create-tree":                      "contents=write",
	"git/create-commit":                    "contents=write",
	"repos/get-branch":                     "contents=read",
	"repos/compare-commits-with-basehead":  "contents=read",
	"repos/create-dispatch-event":          "contents=write",

	"repos/list-pull-requests-associated-with-commit": "contents=read,pull_requests=read",

	"checks/list-for-ref":        "checks=read",
	"checks/list-suites-for-ref": "checks=read",
	"checks/create":              "checks=write",

	"repos/get-combined-status-for-ref": "statuses=read",
	"repos/create-commit-status":        "statuses=write",

	"actions/create-workflow-dispatch":    "actions=write",
	"actions/list-workflow-runs":          "actions=read",
	"actions/list-workflow-runs-for-repo": "actions=read",
	"actions/get-workflow-run":            "actions=read",
	"actions/re-run-workflow-failed-jobs": "actions=write",

	// Organization scopes: a workflow's GITHUB_TOKEN cannot hold members; an App's can.
	"teams/list-members-in-org":            "members=read",
	"teams/get-membership-for-user-in-org": "members=read",

	"repos/get": "metadata=read",
	"repos/get-collaborator-permission-level": "metadata=read",
	"repos/get-branch-rules":                  "metadata=read",
	"rate-limit/get":                          "",
}

// GraphQL are the scopes GraphQL needs to show an object of a type (key "Type")
// or to run a field (key "Type.field"). A type's requirement holds wherever the object is
// reached: a StatusContext among statusCheckRollup's contexts needs statuses, a CheckRun
// there needs checks, and CheckRun.checkSuite.workflowRun needs actions; each is answered
// with null and an error at its path.
var GraphQL = map[string]Need{
	"PullRequest":       "pull_requests=read",
	"PullRequestReview": "pull_requests=read",
	"Issue":             "issues=read",
	"IssueComment":      "issues=read; pull_requests=read",
	"Blob":              "contents=read",
	"Tree":              "contents=read",
	"StatusContext":     "statuses=read",
	"CheckRun":          "checks=read",
	"CheckSuite":        "checks=read",
	"WorkflowRun":       "actions=read",
	"Workflow":          "actions=read",
	"Deployment":        "deployments=read",

	"Mutation.createCommitOnBranch": "contents=write",
	"Mutation.createRef":            "contents=write",
	"Mutation.deleteRef":            "contents=write",
	"Mutation.addComment":           "issues=write; pull_requests=write",
	"Mutation.updateIssueComment":   "issues=write; pull_requests=write",
}
