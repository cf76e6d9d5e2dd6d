package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// What GitHub answers about a merge besides the pipeline: whether it brought a head behind
// its base up to date, and refusals only a person can lift (branch protection or repository
// settings the config does not meet), which escalate the run once instead of being tried
// again on every event.

// settleUpdateBehind records the outcome of merge_pr's update of a head behind its base. A
// refusal that trying again cannot fix escalates the run; another is tried again on the next
// head (or by /pipeline retry).
func (e *eval) settleUpdateBehind(o model.Outcome) bool {
	if !strings.Contains(o.Key, "/"+model.RuleWhenBehind+"/") {
		return false
	}
	for _, run := range e.St.Runs {
		if !strings.HasPrefix(o.Key, run.ID+"/") || run.Status.Final() || run.Status == model.RunEscalated {
			continue
		}
		if o.Err == "" {
			run.Applied = model.AppendOnce(run.Applied, o.Key)
			continue
		}
		if o.Permanent || o.Escalate {
			e.escalate(run, fmt.Sprintf("the head is behind its base branch and could not be brought up to date: %s", o.Err))
		} else {
			e.Logf("run %s: updating the branch: %s; trying again on the next event", run.ID, o.Err)
		}
	}
	return true
}

// mergeRefused escalates run once: GitHub refused the merge of stage (or branch) for a
// setting of the repository the config does not meet, and the same merge would be refused on
// every event. /pipeline retry tries it again once the setting or the config is fixed.
func (e *eval) mergeRefused(run *model.Run, stage *lang.Stage, o model.Outcome) {
	if sr := run.Stages[stage.ID]; sr != nil {
		sr.Status, sr.Message = model.StageFailed, o.Err
	}
	e.escalate(run, o.Err)
}
