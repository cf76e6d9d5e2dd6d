package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dormantYAML: gatekeeper enables scan (dormant) on a subject from its on_complete list,
// and disables itself there with a value a template gives; scan reads a declared shared
// default that set_shared later changes.
const dormantYAML = `version: 1
pipelines:
  gatekeeper:
    trigger: {event: pull_request.labeled, conditions: {label: scan}}
    session_variables: {depth: 1}
    stages:
      - {id: mark, type: action, action: set_shared, config: {name: seen, value: true}, on_success: complete}
    on_complete:
      - set_variable: {name: enabled, value: true, pipeline: scan}
      - set_variable: {name: enabled, value: "{{ shared.depth > 5 }}", workflow: gatekeeper}
  scan:
    enabled: false
    session_variables: {depth: 1, mode: quick}
    trigger: {event: pull_request.labeled, conditions: {label: scan}}
    stages:
      - {id: say, type: action, action: comment, config: {body: "depth {{ shared.depth }} mode {{ shared.mode }}"}, on_success: complete}
`

func pipelineRun(st *model.State, pipeline string) *model.Run {
	for _, r := range st.Runs {
		if r.Pipeline == pipeline {
			return r
		}
	}
	return nil
}

func TestDormantPipelineEnabledByAnotherRun(t *testing.T) {
	cfg := loadYAML(t, dormantYAML)
	// Another label: scan's trigger does not hold; nothing starts.
	res := Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.labeled", Label: "other"}, prFacts("other"), t0)
	assert.Empty(t, res.State.Runs)

	res = Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.labeled", Label: "scan"}, prFacts("scan"), t0)
	require.NotNil(t, pipelineRun(res.State, "gatekeeper"))
	assert.Equal(t, model.RunCompleted, pipelineRun(res.State, "gatekeeper").Status)
	assert.Equal(t, map[string]bool{"scan": true, "gatekeeper": false}, res.State.Enabled)
	scan := pipelineRun(res.State, "scan")
	require.NotNil(t, scan, "enabled in this event, on this event: it starts in it")
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "depth 1 mode quick", res.Effects[0].Body, "the declared defaults")
	assert.Contains(t, strings.Join(res.Log, "\n"), `pipeline "scan": not enabled on this subject; not started`)

	// Another scan label later: gatekeeper disabled itself here; scan is done with this event
	// and starts again only on a new one.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled", Label: "scan"}, prFacts("scan"), t0.Add(time.Hour))
	gk := 0
	for _, r := range res.State.Runs {
		if r.Pipeline == "gatekeeper" {
			gk++
		}
	}
	assert.Equal(t, 1, gk, "gatekeeper is disabled on the subject")
}

// What a subject's state says wins over a pipeline's own enabled: both ways.
func TestSubjectStateEnablesAndDisables(t *testing.T) {
	cfg := loadYAML(t, dormantYAML)
	st := &model.State{Version: 1, Enabled: map[string]bool{"scan": true, "gatekeeper": false}}
	res := Step(cfg, st, model.Input{Key: "k1", Event: "pull_request.labeled", Label: "scan"}, prFacts("scan"), t0)
	assert.NotNil(t, pipelineRun(res.State, "scan"))
	assert.Nil(t, pipelineRun(res.State, "gatekeeper"))
}

// The author of a pull request may not keep a pipeline — a hold, a review — from starting
// on it: `/pipeline disable` is theirs no more than `skip` is. Another writer may.
func TestAuthorMayNotDisableAPipelineOnTheirPR(t *testing.T) {
	cfg := loadYAML(t, dormantYAML)
	f := humanFacts() // dev is the author, with write permission
	f.PR.Comments = []model.IssueComment{command(1, "dev", "/pipeline disable gatekeeper")}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.NotContains(t, res.State.Enabled, "gatekeeper", "nothing disabled")
	require.NotEmpty(t, res.Effects)
	assert.Contains(t, res.Effects[0].Body, "refused: an author of a pull request")

	f.PR.Comments = append(f.PR.Comments, command(2, "alice", "/pipeline disable gatekeeper"))
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	disabled, ok := res.State.Enabled["gatekeeper"]
	assert.True(t, ok && !disabled, "a writer who is not the author may: %v", res.State.Enabled)
}
