package stage

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Agents is what a type that sends work to an agent sees of the run and its subject.
type Agents interface {
	// Agent is the config's agent named name, or nil.
	Agent(name string) *lang.Agent
	// Subject names the run's subject ("o/r#7"), which nonces and dispatches carry.
	Subject() string
	// Delivery is the id of the event's delivery, which makes an attempt's nonce its own.
	Delivery() string
	// Signer signs nonces with the state key, or is nil without one.
	Signer() model.NonceSigner
	// Settling reports whether this evaluation records the outcomes of effects.
	Settling() bool
	// Head is the head commit of the run's pull request.
	Head() string
	// PR is the run's pull request (an issue's run: its pull request's), or nil.
	PR() *model.PullRequest
	// Feedback is what reviewers ask to change on the pull request now, in their words:
	// as values of a context, and as text (not yet made inert).
	Feedback() (values []any, text string)
	// Associate takes outputs of an accepted report of s: the pull requests they name
	// join the run's subject.
	Associate(s *lang.Stage, outputs map[string]any)
}
