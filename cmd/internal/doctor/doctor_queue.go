package doctor

import (
	"fmt"
	"strings"
)

// checkMergeQueue checks, when the default branch requires GitHub's merge queue (merge_pr
// then enqueues), that the repository's CI runs on merge groups: the queue merges a group
// only when its required checks pass on it, so CI that does not listen to merge_group
// leaves every queued pull request waiting.
func (d *doctor) checkMergeQueue(all []*workflow) {
	if d.settings == nil || !d.settings.MergeQueue {
		return
	}
	var ci, listening []string
	for _, w := range all {
		_, pr := w.on["pull_request"]
		_, push := w.on["push"]
		if len(w.commands) > 0 || !pr && !push {
			continue // the action's own workflows, or no CI
		}
		ci = append(ci, w.path)
		if _, ok := w.on["merge_group"]; ok {
			listening = append(listening, w.path)
		}
	}
	branch := d.settings.DefaultBranch
	switch {
	case len(ci) == 0:
		d.add(findingUnverified, fmt.Sprintf("merge queue: %s requires it, and no workflow on pull_request or push was found to run its checks on merge groups", branch),
			"make sure the checks the queue requires run on merge_group")
	case len(listening) == 0:
		d.add(findingProblem, fmt.Sprintf("merge queue: %s requires it (merge_pr puts pull requests in it), and no CI workflow (%s) listens to merge_group: the queue's checks never run on a group, and queued pull requests wait", branch, strings.Join(ci, ", ")),
			"add `merge_group:` to the `on:` of the workflows that run the checks the queue requires")
	default:
		d.add(findingOK, fmt.Sprintf("merge queue: %s requires it; %s run on merge_group", branch, strings.Join(listening, ", ")), "")
	}
}
