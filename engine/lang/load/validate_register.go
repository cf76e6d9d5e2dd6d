package load

import "github.com/org/pipeline-action/engine/lang"

// validators are the passes over a whole config (sub-pipeline cycles, nesting, dangling
// references, unreachable stages), in the order Load runs them once the config has built
// without errors. Each returns its errors and its warnings; warnings go to
// Config.Warnings, and the findings of all passes are sorted together by position.
var validators = []func(*lang.Config) (errs, warnings lang.ErrorList){
	checkMultiPRScopes, // validate_multipr.go
	checkSubPipelines,
	checkAgents,
	checkGroups,
	checkRestarts,
	checkReactions, // validate_reactions.go
	checkActionLoops,
	checkWebhooks,
	checkReachable,
	checkUnusedPipelines,
	checkBranchMerges, // validate_branch_merge.go
	checkTokenEvents,  // validate_token.go
	checkIssueScopes,  // validate_scope.go
	checkTargets,      // validate_targets.go
	checkUpdateBranch, // validate_update_branch.go
}

// partialValidators are the passes that also run over a config that has errors: they
// check references to names defined at the top level, which a mistake elsewhere does
// not change. Passes over stages (reachability, restart targets) would report stages
// dropped for their own errors, so they wait for a clean config.
var partialValidators = []func(*lang.Config) (errs, warnings lang.ErrorList){
	checkSubPipelines,
	checkAgents,
	checkGroups,
}
