// Package doneby finds the run whose performed effect made a subject done — the merge of
// the subject pull request, the close of the subject issue — so that no other run of the
// event acts on it. Its functions are pure over the subject's runs.
package doneby

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// Closing reports whether the effect key (<run id>/<stage>/<attempt>/<kind>, or a list's
// <run id>/<list>/<n>/<kind>) is a merge or a close: the kinds that end a subject.
func Closing(key string) bool {
	return strings.HasSuffix(key, "/"+string(model.EffectMerge)) || strings.HasSuffix(key, "/"+string(model.EffectCloseIssue))
}

// Owner is the run among runs whose effect key is key: the one with the longest id that
// prefixes it (run ids hold slashes too); nil for none.
func Owner(runs []*model.Run, key string) *model.Run {
	var found *model.Run
	for _, r := range runs {
		if strings.HasPrefix(key, r.ID+"/") && (found == nil || len(r.ID) > len(found.ID)) {
			found = r
		}
	}
	return found
}

// Root is the id of the top-level run that run id descends from among runs (id itself
// when it is not a sub-pipeline's run, or is not among them).
func Root(runs []*model.Run, id string) string {
	byID := map[string]*model.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	for n := 0; n <= 64; n++ { // a parent chain longer than any nesting is a loop
		r := byID[id]
		if r == nil || r.Parent == "" {
			break
		}
		id, _ = model.SplitParent(r.Parent)
	}
	return id
}

// Noted is the run (its top-level run) whose performed effect among outcomes made the
// subject done — a merge or close that succeeded, after which the facts show the subject
// not open — or "" for none.
func Noted(runs []*model.Run, pr *model.PullRequest, outcomes []model.Outcome) string {
	if pr == nil || pr.State == model.PROpen {
		return ""
	}
	for _, o := range outcomes {
		if o.Err == "" && !o.Unknown && Closing(o.Key) {
			if run := Owner(runs, o.Key); run != nil {
				return Root(runs, run.ID)
			}
		}
	}
	return ""
}

// Other is why run, a top-level run about to be stepped, is cancelled because run doneBy
// made the subject (an issue when issue, else a pull request, now in state) done in this
// event; "" when it goes on: no run did, it is that run, it is final, or its pipeline
// starts on the closing itself (closing).
func Other(doneBy string, run *model.Run, closing, issue bool, state string) string {
	if doneBy == "" || run.Status.Final() || run.ID == doneBy || closing {
		return ""
	}
	what := "pull request"
	if issue {
		what = "issue"
	}
	return fmt.Sprintf("the %s was %s by run %s in this event; this run acts on it no more", what, state, doneBy)
}
