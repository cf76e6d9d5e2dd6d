package engine

import "github.com/org/pipeline-action/engine/lang"

// The run's context: a pipeline's `context:` is computed when a run starts, over the
// event as the facts describe it (`trigger.pull_request.*`) and the facts themselves.

// initContext computes p's `context:` into run.Context. A value whose template cannot
// be filled is left out, and the job log says why.
func (e *eval) initContext(p *lang.Pipeline, run *Run) {
	if len(p.Context) == 0 {
		return
	}
	env := e.env(p, run)
	env["trigger"] = triggerEnv(e.facts)
	ctx := map[string]any{}
	for _, kv := range p.Context {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			e.logf("run %s: context %q: %v; left out", run.ID, kv.Key, err)
			continue
		}
		ctx[kv.Key] = lang.JSONValue(v)
		env["context"] = ctx
	}
	run.Context = ctx
}

// triggerEnv is the `trigger` root as the facts tell it: the pull request in the shape
// of a pull_request event's payload (number, title, draft, state, user.login, head.ref,
// head.sha, base.ref, labels[].name).
func triggerEnv(f *Facts) map[string]any {
	if f != nil && f.Issue != nil {
		return issueTriggerEnv(f.Issue) // step_issue.go
	}
	if f == nil || f.PR == nil {
		return map[string]any{}
	}
	pr := f.PR
	labels := make([]any, len(pr.Labels))
	for i, l := range pr.Labels {
		labels[i] = map[string]any{"name": l}
	}
	return map[string]any{"pull_request": map[string]any{
		"number": pr.Number, "title": pr.Title, "draft": pr.Draft, "state": pr.State,
		"user":   map[string]any{"login": pr.Author},
		"head":   map[string]any{"ref": pr.HeadRef, "sha": pr.HeadSHA},
		"base":   map[string]any{"ref": pr.BaseRef},
		"labels": labels,
	}}
}
