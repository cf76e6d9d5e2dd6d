package load

import "github.com/org/pipeline-action/engine/lang"

// pass is one pass over a whole config. warnsOnly marks a pass that finds nothing
// but warnings, which a load to run skips (see LoadFilesToRun).
type pass struct {
	check     func(*lang.Config) (errs, warnings lang.ErrorList)
	warnsOnly bool
}

// validators are the passes over a whole config (sub-pipeline cycles, nesting, dangling
// references, unreachable stages), in the order Load runs them once the config has built
// without errors. Each returns its errors and its warnings; warnings go to
// Config.Warnings, and the findings of all passes are sorted together by position.
var validators = []pass{
	{check: checkMultiPRScopes},
	{check: checkSubPipelines},
	{check: checkAgents},
	{check: checkGroups},
	{check: checkRestarts},
	{check: checkReactions},
	{check: checkActionLoops},
	{check: checkStageRefs},
	{check: checkWebhooks},
	{check: checkReachable, warnsOnly: true},
	{check: checkUnusedPipelines, warnsOnly: true},
	{check: checkBranchMerges},
	{check: checkTokenEvents, warnsOnly: true},
	{check: checkIssueScopes},
	{check: checkTargets},
	{check: checkUpdateBranch},
	{check: checkUpdateToken, warnsOnly: true},
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
