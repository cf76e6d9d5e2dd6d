package core

import (
	"github.com/org/pipeline-action/engine/model"
)

// TriggerEnv is the `trigger` root as the facts tell it: the pull request in the shape
// of a pull_request event's payload (number, title, draft, state, user.login, head.ref,
// head.sha, base.ref, labels[].name).
func TriggerEnv(f *model.Facts) map[string]any {
	if f != nil && f.Issue != nil {
		return issueTriggerEnv(f.Issue)
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
