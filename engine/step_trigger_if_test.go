package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func triggerIfConfig(t *testing.T, src string) *lang.Config {
	t.Helper()
	cfg := stepConfig()
	x, err := lang.CompileExpr(src, lang.Pos{File: "p.yaml", Line: 4, Col: 9})
	require.Nil(t, err)
	cfg.Pipelines[0].Trigger.If = x
	return cfg
}

func TestStepTriggerIf(t *testing.T) {
	cases := []struct {
		name, src, title, actor string
		starts                  bool
		log                     string
	}{
		{"holds", "!(trigger.pull_request.title startsWith 'WIP')", "Add widgets", "", true, ""},
		{"false", "!(trigger.pull_request.title startsWith 'WIP')", "WIP: widgets", "", false, `is false; not started`},
		{"action", "trigger.action == 'opened'", "x", "", true, ""},
		{"sender", "trigger.sender.login == 'alice'", "x", "alice", true, ""},
		{"other sender", "trigger.sender.login == 'alice'", "x", "mallory", false, "is false"},
		{"github root", "github.pr.base == 'main' && 'ok' in github.pr.labels", "x", "", false, "is false"},
		{"not a boolean", "trigger.pull_request.title", "x", "", false, "gave the string x, not true or false; not started"},
		{"null", "trigger.pull_request.milestone", "x", "", false, "gave null, not true or false; not started"},
		{"runtime error", "int(trigger.pull_request.title) > 1", "x", "", false, "could not be evaluated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := prFacts()
			f.PR.Title = tc.title
			res := Step(triggerIfConfig(t, tc.src), nil, model.Input{Key: "k1", Event: "pull_request.opened", Actor: tc.actor}, f, t0)
			if tc.starts {
				require.Len(t, res.State.Runs, 1)
				assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
				return
			}
			assert.Empty(t, res.State.Runs)
			assert.Empty(t, res.Effects)
			assert.Contains(t, strings.Join(res.Log, "\n"), tc.log)
			assert.Contains(t, strings.Join(res.Log, "\n"), "p.yaml:4:9")
		})
	}
}

// A trigger is level-triggered: a PR opened as WIP starts once its title changes, on the
// next event, and the sender of that later event is not taken for the trigger's.
func TestStepTriggerIfLaterEvent(t *testing.T) {
	cfg := triggerIfConfig(t, "!(trigger.pull_request.title startsWith 'WIP') && trigger.sender == null")
	f := prFacts()
	f.PR.Title = "WIP: widgets"
	f.PR.CreatedAt = t0
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened", Actor: "alice"}, f, t0)
	require.Empty(t, res.State.Runs)

	f.PR.Title = "widgets"
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.edited", Actor: "alice"}, f, t0.Add(time.Minute))
	require.Len(t, res.State.Runs, 1)
	assert.Contains(t, strings.Join(res.Log, "\n"), "started late")
}
