package rest

// Handlers are the implemented Operations, by operationId, in the order of
// operations_table.go; an operation missing here answers 501 and is recorded as unexpected.
// The comment on each names the file that holds its handler.
var Handlers = map[string]restHandler{
	"pulls/get":                                       pullsGet,                // rest_pulls.go
	"pulls/merge":                                     pullsMerge,              // rest_pulls.go
	"pulls/list-reviews":                              pullsListReviews,        // rest_pulls.go
	"pulls/request-reviewers":                         pullsRequestReviewers,   // rest_misc.go
	"pulls/update-branch":                             pullsUpdateBranch,       // mergeability.go
	"issues/add-labels":                               issuesAddLabels,         // rest_issues.go
	"issues/remove-label":                             issuesRemoveLabel,       // rest_issues.go
	"issues/remove-all-labels":                        issuesRemoveAllLabels,   // rest_issues.go
	"issues/set-labels":                               issuesSetLabels,         // rest_issues.go
	"issues/create-comment":                           issuesCreateComment,     // rest_issues.go
	"issues/update-comment":                           issuesUpdateComment,     // rest_issues.go
	"issues/list-comments":                            issuesListComments,      // rest_issues.go
	"issues/get-comment":                              issuesGetComment,        // rest_issues.go
	"issues/add-assignees":                            issuesAddAssignees,      // dispatch.go
	"issues/update":                                   issuesUpdate,            // rest_misc.go
	"repos/get-content":                               reposGetContent,         // rest_git.go
	"repos/create-or-update-file-contents":            reposPutContent,         // the state branch's retry list, when GraphQL is spent
	"git/get-ref":                                     gitGetRef,               // rest_git.go
	"git/update-ref":                                  gitUpdateRef,            // rest_git.go
	"git/create-ref":                                  gitCreateRef,            // rest_git.go
	"checks/list-for-ref":                             checksListForRef,        // rest_reads.go
	"repos/get-combined-status-for-ref":               reposCombinedStatus,     // rest_reads.go
	"actions/create-workflow-dispatch":                actionsDispatch,         // rest_misc.go
	"repos/create-dispatch-event":                     reposDispatch,           // rest_misc.go
	"repos/get-collaborator-permission-level":         reposGetPermission,      // rest_pulls.go
	"issues/create":                                   issuesCreate,            // rest_actions.go
	"issues/get":                                      issuesGet,               // rest_issues.go
	"issues/delete-comment":                           issuesDeleteComment,     // rest_issues.go
	"issues/list-labels-on-issue":                     issuesListLabels,        // rest_issues.go
	"git/delete-ref":                                  gitDeleteRef,            // rest_pulls.go
	"pulls/list":                                      pullsList,               // rest_reads.go
	"pulls/list-files":                                pullsListFiles,          // rest_pulls.go
	"actions/list-workflow-runs":                      actionsListWorkflowRuns, // rest_workflow_runs.go
	"actions/list-workflow-runs-for-repo":             actionsListRunsForRepo,  // rest_reads.go
	"teams/list-members-in-org":                       teamsListMembers,        // rest_misc.go
	"teams/get-membership-for-user-in-org":            teamsGetMembership,      // rest_misc.go
	"repos/list-pull-requests-associated-with-commit": reposPullsOfCommit,      // rest_pulls.go
	"repos/get":                                       reposGet,                // rest_pulls.go
	"repos/get-branch":                                reposGetBranch,          // rest_git.go
	"repos/compare-commits-with-basehead":             reposCompare,            // rest_compare.go
	"repos/create-commit-status":                      reposCreateStatus,       // rest_misc.go
	"reactions/create-for-issue-comment":              reactionsCreate,         // rest_misc.go
	"rate-limit/get":                                  rateLimitGet,            // rest_misc.go
	"repos/get-branch-rules":                          reposGetBranchRules,     // rest_git.go
}
