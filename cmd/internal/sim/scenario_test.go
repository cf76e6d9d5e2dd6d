package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Mistakes in a scenario are reported at file:line:col, with a suggestion when a key or
// step kind is misspelt, as a config's mistakes are.
func TestScenarioMistakes(t *testing.T) {
	const head = "repo: acme/widgets\nsteps:\n"
	checkMistakes(t, []scenarioMistake{
		{"misspelt step", head + "  - opne_pr: {number: 7}\n",
			`3:5: unknown step "opne_pr"; did you mean "open_pr"?`},
		{"unknown step", head + "  - frobnicate: {number: 7}\n",
			`3:5: unknown step "frobnicate"; expected one of access, advance, agent_fails, change_config, check, close_pr, comment, conflict, convert_to_draft, deliver_held, deploy, dismiss_review, dispatch, doctor, edit_comment, edit_pr, expect, explain, fault, http, label, open_issue, open_pr, push, ready_for_review, redeliver, report, resolve, review, state_branch, state_key, status, together, update_branch, webhook, workflow_run`},
		{"misspelt key in a step", head + "  - open_pr: {number: 7, autor: dev}\n",
			`3:26: unknown key "autor" in open_pr; did you mean "author"?`},
		{"unknown key in a step", head + "  - review:\n      pr: 7\n      approve: yes\n",
			`5:7: unknown key "approve" in review; expected one of body, conversation, deliver, pr, repo, state, user`},
		{"key of a nested mapping", head + "  - comment: {pr: 7, user: x, forge_state: {pipline: p}}\n",
			`3:45: unknown key "pipline" in comment.forge_state; did you mean "pipeline"?`},
		{"key of an expectation", head + "  - open_pr: {number: 7}\nexpect:\n  prs:\n    7: {merge: true}\n",
			`6:9: unknown key "merge" in expect.prs.7; did you mean "merged"?`},
		{"key of an expect step", head + "  - expect: {pr: {7: {merged: true}}}\n",
			`3:14: unknown key "pr" in expect; did you mean "prs"?`},
		{"key of a run expectation", head + "  - expect: {runs: [{pipeline: p, stauts: waiting}]}\n",
			`3:35: unknown key "stauts" in expect.runs; did you mean "status"?`},
		{"top-level key", "repo: acme/widgets\nstpes: []\n",
			`2:1: unknown key "stpes" in scenario; did you mean "steps"?`},
		{"a number", head + "  - open_pr: {number: seven}\n",
			`3:23: "number" in open_pr must be a whole number, not "seven"`},
		{"a list", head + "  - open_pr: {number: 7, labels: bug}\n",
			`3:34: "labels" in open_pr must be a list of strings, not "bug"`},
		{"a string in a list", head + "  - label: {pr: 7, add: [ok, {a: b}]}\n",
			`3:30: label.add must be a string, not a mapping`},
		{"a boolean", head + "  - review: {pr: 7, user: a, deliver: maybe}\n",
			`3:39: "deliver" in review must be true, false or later, not "maybe"`},
		{"a duration", "repo: acme/widgets\ntimeout: soon\n",
			`2:10: "timeout" in scenario must be a duration such as 5m, not "soon"`},
		{"a step's value", head + "  - open_pr: 7\n",
			`3:14: open_pr must be a mapping, not "7"`},
		{"keys of prs", head + "  - expect: {prs: {seven: {merged: true}}}\n",
			`3:20: the keys of expect.prs must be whole numbers, not "seven"`},
		{"a duplicate key", head + "  - open_pr: {number: 7, number: 8}\n",
			`3:26: duplicate key "number" in open_pr (first at PATH:3:15)`},
		{"a duplicate top-level key", "repo: acme/widgets\nsteps: []\nsteps: []\n",
			`3:1: duplicate key "steps" in scenario (first at PATH:2:1)`},
		{"a step of two keys", head + "  - open_pr: {number: 7}\n    review: {pr: 7}\n",
			`3:5: a step is a mapping with one key: its kind`},
		{"advance", head + "  - advance: soon\n",
			`3:14: "advance" takes a duration such as 25h, not "soon"`},
		{"repo", "repo: widgets\n",
			`1:1: "repo" must be owner/name`},
		{"syntax", head + "  - open_pr: {number: 7\n",
			`3:14: invalid YAML: this mapping is never closed; add the closing "}" [syntax]`},
	})
}

// scenarioMistake is a scenario file, src, that does not load, and the error it gives
// after its path: want, where PATH stands for that path.
type scenarioMistake struct {
	name, src, want string
}

// checkMistakes loads each mistake's file and holds its error to the one it wants.
func checkMistakes(t *testing.T, tests []scenarioMistake) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.yaml")
			require.NoError(t, os.WriteFile(path, []byte(tt.src), 0o600))
			_, err := loadScenario(path)
			require.Error(t, err)
			assert.Equal(t, path+":"+strings.ReplaceAll(tt.want, "PATH", path), err.Error())
		})
	}
}
