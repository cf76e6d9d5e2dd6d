package model

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Issue states.
const (
	IssueOpen   = "open"
	IssueClosed = "closed"
)

// Issue is an issue as the engine sees it: the subject of the runs of `scope: issue`
// pipelines. Their pull requests (an agent's report with outputs.pr associates one with a
// run) are in Facts.PRs.
type Issue struct {
	Number int
	Title  string
	State  string // IssueOpen | IssueClosed
	Author string
	Labels []string
	// CreatedAt and Timeline (labels added and removed, reopenings, oldest first) make the
	// triggers of issue pipelines level-triggered, as those of pull requests are.
	CreatedAt time.Time
	Timeline  []TimelineEvent
	// Comments are the issue's comments, oldest first (chat-ops, human stages); Posted the
	// effect keys of the action's own comments on it (see EffectMarker).
	Comments []IssueComment
	Posted   []string
}

// HasLabel reports whether the issue carries label name (compared as GitHub compares labels).
func (i *Issue) HasLabel(name string) bool {
	for _, l := range i.Labels {
		if lang.SameLabel(l, name) {
			return true
		}
	}
	return false
}
