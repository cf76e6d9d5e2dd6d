package run

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// dispatchLookBack is how long before a dispatch was asked for its workflow run may have
// been created by GitHub's clock: the runner's and GitHub's clocks may differ.
const dispatchLookBack = 5 * time.Minute

// lookUpDispatches reads what GitHub shows of the dispatches st holds intents of that
// the facts do not already show, into f.Dispatches: for a
// workflow_dispatch, the runs of its workflow that a workflow_dispatch started since
// (shortly before) it was asked for, and whether one names its run, stage and attempt in
// its display title; for an assignee, whether it is assigned. It costs one REST call per
// such intent, and nothing while the state holds none (an intent lives from the save
// before its dispatch to the outcome after it, or while its outcome is unknown). A read
// that fails is recorded as failed and said in warn: the engine then neither takes the
// dispatch as done nor sends it again.
func lookUpDispatches(ctx context.Context, client *ghapi.Client, st *engine.State, f *engine.Facts, warn func(string, ...any)) {
	if st == nil || f == nil {
		return
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		for _, it := range run.Intents {
			if it.Kind != engine.EffectDispatch || it.Target == "" || (it.Dispatch != lang.DispatchWorkflow && it.Dispatch != lang.DispatchAssign) {
				continue
			}
			tr := lookUpDispatch(ctx, client, run, it, factsNumber(f))
			if tr.Err != "" {
				warn("%s: %s", it.Key, tr.Err)
			}
			if f.Dispatches == nil {
				f.Dispatches = map[string]engine.DispatchTrace{}
			}
			f.Dispatches[it.Key] = tr
		}
	}
}

func factsNumber(f *engine.Facts) int {
	if f.PR != nil {
		return f.PR.Number
	}
	if f.Issue != nil {
		return f.Issue.Number
	}
	return 0
}

// lookUpDispatch reads what GitHub shows of the dispatch of intent it of run.
func lookUpDispatch(ctx context.Context, client *ghapi.Client, run *engine.Run, it engine.Intent, number int) engine.DispatchTrace {
	if it.Dispatch == lang.DispatchAssign {
		ok, err := client.Assigned(ctx, number, it.Target)
		switch {
		case err != nil:
			return engine.DispatchTrace{Err: err.Error()}
		case ok:
			return engine.DispatchTrace{Seen: true, Why: fmt.Sprintf("%s is assigned to #%d", it.Target, number)}
		}
		return engine.DispatchTrace{Why: fmt.Sprintf("%s is not assigned to #%d", it.Target, number)}
	}
	since := it.At.Add(-dispatchLookBack)
	runs, complete, err := client.DispatchedRuns(ctx, it.Target, since)
	if err != nil {
		return engine.DispatchTrace{Err: err.Error()}
	}
	return matchDispatchedRun(run.ID, it, runs, complete, since)
}

// matchDispatchedRun finds, among runs of the dispatch's workflow created since, the one
// whose display title names the dispatch's run, stage and attempt (agentRunTitle). A run
// whose title names none may be it — its workflow's run-name does not name them — so the
// dispatch is then not certainly absent; neither is it when not every run was read.
func matchDispatchedRun(runID string, it engine.Intent, runs []ghapi.DispatchedRun, complete bool, since time.Time) engine.DispatchTrace {
	var unsure string
	for _, r := range runs {
		m := AgentRunTitle.FindStringSubmatch(r.Title)
		if m == nil {
			if unsure == "" {
				unsure = fmt.Sprintf("workflow run %d of %s, created %s, names no run, stage and attempt in its title %q: it may be this dispatch's (the agent's workflow names them in its run-name)",
					r.ID, it.Target, r.Created.UTC().Format(time.RFC3339), r.Title)
			}
			continue
		}
		if m[1] == runID && m[2] == it.Stage && m[3] == strconv.Itoa(it.Attempt) {
			return engine.DispatchTrace{Seen: true, RunID: r.ID, Why: fmt.Sprintf("workflow run %d of %s, %q, is its", r.ID, it.Target, r.Title)}
		}
	}
	if unsure == "" && !complete {
		unsure = fmt.Sprintf("%s has more runs since %s than were read", it.Target, since.UTC().Format(time.RFC3339))
	}
	if unsure != "" {
		return engine.DispatchTrace{Unsure: true, Why: unsure}
	}
	return engine.DispatchTrace{Why: fmt.Sprintf("no run of workflow %s that a workflow_dispatch started since %s names run %s, stage %s, attempt %d",
		it.Target, since.UTC().Format(time.RFC3339), runID, it.Stage, it.Attempt)}
}
