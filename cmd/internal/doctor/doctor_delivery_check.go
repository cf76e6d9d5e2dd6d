package doctor

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// checkDelivery checks that the workflows running the action deliver each event the
// config relies on: the event listened to, its action among the `types:` (GitHub's
// defaults when none are listed), and no `if:` that skips it. An event never delivered
// is a transition that never happens.
func (d *doctor) checkDelivery(runs, sweeps []*workflow) {
	reported := map[string]bool{} // event names checkEvents already reports as not listened to
	for _, n := range eventsNeeded(d.cfg) {
		reported[n.event] = !slices.ContainsFunc(runs, func(w *workflow) bool {
			_, ok := w.on[n.event]
			_, pr := w.on["pull_request"]
			return ok || n.event == "pull_request_target" && pr
		})
	}
	var order []string
	byKey := map[string][]reliedEvent{}
	for _, r := range reliedEvents(d.cfg) {
		if byKey[r.key()] == nil {
			order = append(order, r.key())
		}
		byKey[r.key()] = append(byKey[r.key()], r)
	}
	unsure := map[string]bool{}
	for _, k := range order {
		rs := byKey[k]
		dl := deliver(runs, rs[0])
		if dl.by != "" {
			d.add(findingOK, fmt.Sprintf("event %s (%s): %s delivers it", k, rs[0].where, dl.by), "")
			if dl.unsure != "" && !unsure[dl.unsure] {
				unsure[dl.unsure] = true
				d.add(findingUnverified, dl.unsure+" reads more than the event's name and action: which events it skips is not checked",
					"make sure it lets through every event the config acts on")
			}
			continue
		}
		if reported[workflowEvents(rs[0].event)[0]] && strings.HasPrefix(dl.missing, "no workflow") {
			continue
		}
		if sweep := sweepFindsReviews(sweeps, rs[0]); sweep != "" {
			d.add(findingOK, fmt.Sprintf("event %s (%s): not delivered (%s), and the sweep of %s finds the review and advances the pull request on its next run", k, rs[0].where, dl.missing, sweep), "")
			continue
		}
		wheres := make([]string, len(rs))
		for i, r := range rs {
			wheres[i] = r.where
		}
		d.add(findingProblem, fmt.Sprintf("event %s, which %s relies on, is never delivered: %s", k, strings.Join(wheres, "; "), dl.missing), dl.fix)
	}
}

// checkConcurrency checks that no workflow running the action cancels a run in
// progress: a cancelled run is a lost event, and may stop between two writes.
func (d *doctor) checkConcurrency(all []*workflow) {
	cancels := false
	for _, w := range all {
		if len(w.jobs) == 0 {
			continue
		}
		if v, ok := cancelsInProgress(w.concurrency); ok {
			cancels = true
			d.add(findingProblem, fmt.Sprintf("%s: `concurrency: cancel-in-progress: %s`: a run the next event cancels loses its event, and may stop between two writes", w.path, v),
				fmt.Sprintf("set `cancel-in-progress: false` in the `concurrency:` of %s (runs of a group then wait for each other)", w.path))
		}
		for _, j := range w.jobs {
			if v, ok := cancelsInProgress(j.concurrency); ok {
				cancels = true
				d.add(findingProblem, fmt.Sprintf("%s, job %s: `concurrency: cancel-in-progress: %s`: a run the next event cancels loses its event, and may stop between two writes", w.path, j.id, v),
					fmt.Sprintf("set `cancel-in-progress: false` in the `concurrency:` of job %s in %s (runs of a group then wait for each other)", j.id, w.path))
			}
		}
	}
	if !cancels {
		d.add(findingOK, "concurrency: no workflow that runs the action cancels a run in progress", "")
	}
}

// cancelsInProgress returns a concurrency's `cancel-in-progress:` as written when it
// may be true: a group alone (a string) never cancels, an expression may.
func cancelsInProgress(n yaml.Node) (string, bool) {
	if n.Kind != yaml.MappingNode {
		return "", false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "cancel-in-progress" {
			continue
		}
		v := n.Content[i+1].Value
		t, known := evalGitHubExpr(v, ghContext{}).truth()
		return v, !known || t
	}
	return "", false
}

// sweepFindsReviews names the scheduled sweep workflow that stands in for r, a review or
// its dismissal the workflows never deliver: the sweep advances every pull request with a
// waiting run that was reviewed since its state was written. It returns "" when r is
// another event or no sweep runs on a schedule.
func sweepFindsReviews(sweeps []*workflow, r reliedEvent) string {
	if r.event != "pull_request_review" || r.action != "submitted" && r.action != "dismissed" {
		return ""
	}
	for _, w := range sweeps {
		if _, ok := w.on["schedule"]; ok {
			return w.path
		}
	}
	return ""
}
