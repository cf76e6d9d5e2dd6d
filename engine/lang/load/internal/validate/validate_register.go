package validate

import "github.com/org/pipeline-action/engine/lang"

// Pass is one pass over a whole config. WarnsOnly marks a pass that finds nothing
// but warnings, which a load to run skips.
type Pass struct {
	Check     func(*lang.Config) (errs, warnings lang.ErrorList)
	WarnsOnly bool
}

// Passes are the passes over a whole config (sub-pipeline cycles, nesting, dangling
// references, unreachable stages), in the order Load runs them once the config has built
// without errors. Each returns its errors and its warnings; warnings go to
// Config.Warnings, and the findings of all passes are sorted together by position.
var Passes = []Pass{
	{Check: checkMultiPRScopes},
	{Check: checkSubPipelines},
	{Check: checkAgents},
	{Check: checkGroups},
	{Check: checkRestarts},
	{Check: checkReactions},
	{Check: checkActionLoops},
	{Check: checkStageRefs},
	{Check: checkWebhooks},
	{Check: checkReachable, WarnsOnly: true},
	{Check: checkUnusedPipelines, WarnsOnly: true},
	{Check: checkBranchMerges},
	{Check: checkTokenEvents, WarnsOnly: true},
	{Check: checkIssueScopes},
	{Check: checkTargets},
	{Check: checkUpdateBranch},
	{Check: checkUpdateToken, WarnsOnly: true},
}

// Partial are the passes that also run over a config that has errors: they
// check references to names defined at the top level, which a mistake elsewhere does
// not change. Passes over stages (reachability, restart targets) would report stages
// dropped for their own errors, so they wait for a clean config.
var Partial = []func(*lang.Config) (errs, warnings lang.ErrorList){
	checkSubPipelines,
	checkAgents,
	checkGroups,
}
