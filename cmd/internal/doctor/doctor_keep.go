package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// checkKeepUpToDate checks, when a pipeline keeps its pull requests up to date as their base
// moves, that a workflow runs the action on push to those bases: keep_up_to_date acts on
// the push that moves a base, and without it only the sweep brings them up, late.
func (d *doctor) checkKeepUpToDate(all []*workflow) {
	var keeping, bases []string
	anyBase := false
	for _, p := range d.cfg.Pipelines {
		if p.KeepUpToDate == nil {
			continue
		}
		keeping = append(keeping, p.Name)
		switch b := p.Trigger.BaseBranch; {
		case b == "":
			anyBase = true
		case !slices.Contains(bases, b):
			bases = append(bases, b)
		}
	}
	if len(keeping) == 0 {
		return
	}
	if anyBase {
		bases = []string{d.branch}
	}
	var listening, unfiltered []string
	for _, w := range all {
		if _, ok := w.on["push"]; !ok || !slices.Contains(w.commands, "run") {
			continue
		}
		listening = append(listening, w.path)
		if len(w.listed("push", "branches")) == 0 && len(w.listed("push", "branches-ignore")) == 0 {
			unfiltered = append(unfiltered, w.path)
		}
	}
	what := fmt.Sprintf("keep_up_to_date (%s)", lang.QuoteList(keeping))
	if len(listening) == 0 {
		d.add(findingProblem, fmt.Sprintf("%s: no workflow runs the action on push, so a base that moves (%s) brings no pull request up to date until a sweep",
			what, strings.Join(bases, ", ")),
			fmt.Sprintf("add `push: {branches: [%s]}` to the `on:` of the workflow that runs the action (`pipeline-action workflow` prints the block)", strings.Join(bases, ", ")))
		return
	}
	if len(unfiltered) > 0 {
		d.add(findingProblem, fmt.Sprintf("%s: %s run the action on every push, to any branch: each state commit of the action and each push to a pull request starts a job that can do nothing",
			what, strings.Join(unfiltered, ", ")),
			fmt.Sprintf("name the bases: `push: {branches: [%s]}`", strings.Join(bases, ", ")))
		return
	}
	d.add(findingOK, fmt.Sprintf("%s: %s run the action on push", what, strings.Join(listening, ", ")), "")
}
