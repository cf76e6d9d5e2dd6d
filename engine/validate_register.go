package engine

// The validation passes, in the order Load runs them; the errors and warnings of all
// of them are sorted together by position.
func init() {
	validators = append(validators,
		checkSubPipelines,
		checkAgents,
		checkGroups,
		checkRestarts,
		checkWebhooks,
		checkReachable,
		checkUnusedPipelines,
	)
}
