package settle

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// UpdateBehind records the outcome of merge_pr's update of a head behind its base. A
// refusal that trying again cannot fix escalates the run; another is tried again on the next
// head (or by /pipeline retry).
func UpdateBehind(k Kernel, o model.Outcome) bool {
	if !strings.Contains(o.Key, "/"+model.RuleWhenBehind+"/") {
		return false
	}
	for _, run := range k.Runs() {
		if !strings.HasPrefix(o.Key, run.ID+"/") || run.Status.Final() || run.Status == model.RunEscalated {
			continue
		}
		if o.Err == "" {
			run.Applied = model.AppendOnce(run.Applied, o.Key)
			continue
		}
		if o.Permanent || o.Escalate {
			k.Escalate(run, fmt.Sprintf("the head is behind its base branch and could not be brought up to date: %s", o.Err))
		} else {
			k.Logf("run %s: updating the branch: %s; trying again on the next event", run.ID, o.Err)
		}
	}
	return true
}
