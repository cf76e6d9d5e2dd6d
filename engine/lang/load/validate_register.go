package load

import "github.com/org/pipeline-action/engine/lang"

// The validation passes, in the order Load runs them; the errors and warnings of all
// of them are sorted together by position.
func init() {
	validators = append(validators,
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
	)
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
