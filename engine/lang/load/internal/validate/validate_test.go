package validate

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

// The validation passes are tested over hand-built configs: positions are line
// numbers chosen by each case, so that the expected lines read as a config would.

func at(line int) lang.Pos { return lang.Pos{File: "p.yaml", Line: line, Col: 3} }

// pipe builds a pipeline with a trigger at line, its stages after it.
func pipe(name string, line int, stages ...*lang.Stage) *lang.Pipeline {
	return &lang.Pipeline{Name: name, Pos: at(line), HasTrigger: true, Stages: stages}
}

// sub builds a pipeline without a trigger.
func sub(name string, line int, stages ...*lang.Stage) *lang.Pipeline {
	p := pipe(name, line, stages...)
	p.HasTrigger = false
	return p
}

func gateAt(id string, line int) *lang.Stage {
	return &lang.Stage{ID: id, Type: lang.StageGate, Pos: at(line)}
}

func runs(id, pipeline string, line int) *lang.Stage {
	return &lang.Stage{ID: id, Type: lang.StagePipeline, Pipeline: pipeline, Pos: at(line)}
}

func agentAt(id, agent string, line int) *lang.Stage {
	return &lang.Stage{ID: id, Type: lang.StageAgent, Agent: agent, Pos: at(line)}
}

// lines renders findings as the validate command prints them, without the file.
func lines(l lang.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error()[len("p.yaml:"):])
	}
	return out
}

type passCase struct {
	name     string
	cfg      *lang.Config
	errs     []string
	warnings []string
}

func runPass(t *testing.T, pass func(*lang.Config) (lang.ErrorList, lang.ErrorList), cases []passCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			errs, warnings := pass(tt.cfg)
			assert.Equal(t, tt.errs, lines(errs), "errors")
			assert.Equal(t, tt.warnings, lines(warnings), "warnings")
		})
	}
}

func TestCheckSubPipelines(t *testing.T) {
	runPass(t, checkSubPipelines, []passCase{
		{name: "clean", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("feature", 1, runs("review", "standard-review", 3)),
			sub("standard-review", 10, gateAt("ok", 11)),
		}}},
		{name: "unknown with a suggestion", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("feature", 1, runs("review", "standard-reveiw", 3)),
			sub("standard-review", 10, gateAt("ok", 11)),
		}}, errs: []string{`3:3: unknown sub-pipeline "standard-reveiw" in stage "review"; did you mean "standard-review"? [ref]`}},
		{name: "unknown without a suggestion", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("feature", 1, runs("review", "zzz", 3)),
			sub("standard-review", 10, gateAt("ok", 11)),
		}}, errs: []string{`3:3: unknown sub-pipeline "zzz" in stage "review"; expected one of "feature", "standard-review" [ref]`}},
		{name: "unknown in a branch", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("multi", 1, &lang.Stage{ID: "reviews", Type: lang.StageParallel, Pos: at(3), Branches: []*lang.Stage{
				runs("api", "reviw", 5),
			}}),
			sub("review", 10, gateAt("ok", 11)),
		}}, errs: []string{`5:3: unknown sub-pipeline "reviw" in branch "api" of stage "reviews"; did you mean "review"? [ref]`}},
		{name: "runs itself", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("loop", 1, gateAt("a", 2), runs("again", "loop", 3)),
		}}, errs: []string{`3:3: sub-pipeline cycle: "loop" -> "loop" [cycle]`}},
		{name: "cycle of three", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("a", 1, runs("to-b", "b", 2)),
			sub("b", 10, runs("to-c", "c", 11)),
			sub("c", 20, gateAt("x", 21), runs("to-a", "a", 22)),
		}}, errs: []string{`22:3: sub-pipeline cycle: "a" -> "b" -> "c" -> "a" [cycle]`}},
		{name: "two cycles through one pipeline", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("top", 1, runs("to-a", "a", 2)),
			sub("a", 10, runs("to-b", "b", 11), runs("to-c", "c", 12)),
			sub("b", 20, runs("back", "a", 21)),
			sub("c", 30, runs("back", "a", 31)),
		}}, errs: []string{
			`21:3: sub-pipeline cycle: "a" -> "b" -> "a" [cycle]`,
			`31:3: sub-pipeline cycle: "a" -> "c" -> "a" [cycle]`,
		}},
		{name: "a cycle is found once from its first pipeline", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			sub("x", 1, runs("to-y", "y", 2)),
			sub("y", 10, runs("to-x", "x", 11)),
		}}, errs: []string{`11:3: sub-pipeline cycle: "x" -> "y" -> "x" [cycle]`}},
		{name: "nesting at the limit", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("a", 1, runs("s", "b", 2)),
			sub("b", 10, runs("s", "c", 11)),
			sub("c", 20, runs("s", "d", 21)),
			sub("d", 30, gateAt("ok", 31)),
		}}},
		{name: "nesting too deep", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("a", 1, runs("s", "b", 2)),
			sub("b", 10, runs("s", "c", 11)),
			sub("c", 20, runs("s", "d", 21)),
			sub("d", 30, runs("s", "e", 31)),
			sub("e", 40, gateAt("ok", 41)),
		}}, errs: []string{
			`31:3: sub-pipelines nest 4 levels deep, more than settings.max_nesting (3): "a" -> "b" -> "c" -> "d" -> "e" [nesting]`,
		}},
		{name: "nesting by the longest chain", cfg: &lang.Config{Settings: lang.Settings{MaxNesting: 1}, Pipelines: []*lang.Pipeline{
			pipe("a", 1, runs("short", "c", 2), runs("long", "b", 3)),
			sub("b", 10, runs("s", "c", 11)),
			sub("c", 20, gateAt("ok", 21)),
		}}, errs: []string{
			`11:3: sub-pipelines nest 2 levels deep, more than settings.max_nesting (1): "a" -> "b" -> "c" [nesting]`,
		}},
		{name: "a cycle is not also too deep", cfg: &lang.Config{Settings: lang.Settings{MaxNesting: 1}, Pipelines: []*lang.Pipeline{
			pipe("a", 1, runs("s", "b", 2)),
			sub("b", 10, runs("s", "a", 11)),
		}}, errs: []string{`11:3: sub-pipeline cycle: "a" -> "b" -> "a" [cycle]`}},
	})
}

func TestCheckUnusedPipelines(t *testing.T) {
	runPass(t, checkUnusedPipelines, []passCase{
		{name: "used", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("feature", 1, runs("review", "review", 3)),
			sub("review", 10, gateAt("ok", 11)),
		}}},
		{name: "unused", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("feature", 1, gateAt("ok", 2)),
			sub("review", 10, gateAt("ok", 11)),
		}}, warnings: []string{
			`10:3: pipeline "review" never runs: it has no "trigger" and no "type: pipeline" stage runs it as a sub-pipeline [warning]`,
		}},
		{name: "only runs itself", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			sub("review", 10, runs("again", "review", 11)),
		}}, warnings: []string{
			`10:3: pipeline "review" never runs: it has no "trigger" and no "type: pipeline" stage runs it as a sub-pipeline [warning]`,
		}},
	})
}

func TestCheckAgents(t *testing.T) {
	agents := []*lang.Agent{{Name: "pr-review"}, {Name: "feat-dev"}}
	runPass(t, checkAgents, []passCase{
		{name: "known", cfg: &lang.Config{Agents: agents, Pipelines: []*lang.Pipeline{
			pipe("p", 1, agentAt("review", "pr-review", 2)),
		}}},
		{name: "misspelt", cfg: &lang.Config{Agents: agents, Pipelines: []*lang.Pipeline{
			pipe("p", 1, agentAt("review", "pr-reviw", 2)),
		}}, errs: []string{`2:3: unknown agent "pr-reviw" in stage "review"; did you mean "pr-review"? [ref]`}},
		{name: "unknown lists the agents", cfg: &lang.Config{Agents: agents, Pipelines: []*lang.Pipeline{
			pipe("p", 1, agentAt("review", "security", 2)),
		}}, errs: []string{`2:3: unknown agent "security" in stage "review"; expected one of "pr-review", "feat-dev" [ref]`}},
		{name: "no agents", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("p", 1, agentAt("review", "security", 2)),
		}}, errs: []string{`2:3: unknown agent "security" in stage "review"; define it under "agents" [ref]`}},
		{name: "branch", cfg: &lang.Config{Agents: agents, Pipelines: []*lang.Pipeline{
			pipe("p", 1, &lang.Stage{ID: "reviews", Type: lang.StageParallel, Pos: at(2), Branches: []*lang.Stage{
				agentAt("a", "pr-review", 4), agentAt("b", "feat-de", 7),
			}}),
		}}, errs: []string{`7:3: unknown agent "feat-de" in branch "b" of stage "reviews"; did you mean "feat-dev"? [ref]`}},
		{name: "wake_agent", cfg: &lang.Config{Agents: agents, Pipelines: []*lang.Pipeline{{
			Name: "p", Pos: at(1), HasTrigger: true,
			OnEvents: []lang.EventReaction{
				{Event: "issue_comment.created", Action: lang.ReactWakeAgent, Agent: "feat_dev", Pos: at(3)},
				{Event: "pull_request.synchronize", Action: lang.ReactWakeAgent, Pos: at(5)}, // the current stage's
			},
			Stages: []*lang.Stage{agentAt("dev", "feat-dev", 8)},
		}}}, errs: []string{`3:3: unknown agent "feat_dev" in "wake_agent" of the "issue_comment.created" reaction of pipeline "p"; did you mean "feat-dev"? [ref]`}},
	})
}

// groupCheck is a compiled gate condition that names a group.
type groupCheck struct{}

func (groupCheck) Group() string { return "maintainer" }

func TestCheckGroups(t *testing.T) {
	groups := []*lang.Group{{Name: "maintainers"}, {Name: "security"}}
	runPass(t, checkGroups, []passCase{
		{name: "known", cfg: &lang.Config{Groups: groups, Settings: lang.Settings{ChatOpsFrom: []string{"maintainers"}}, Pipelines: []*lang.Pipeline{
			pipe("p", 1, &lang.Stage{ID: "approve", Type: lang.StageHuman, From: "maintainers", Pos: at(2)}),
		}}},
		{name: "human from", cfg: &lang.Config{Groups: groups, Pipelines: []*lang.Pipeline{
			pipe("p", 1, &lang.Stage{ID: "approve", Type: lang.StageHuman, From: "maintainer", Pos: at(2)}),
		}}, errs: []string{`2:3: unknown group "maintainer" in "from" of stage "approve"; did you mean "maintainers"? [ref]`}},
		{name: "no groups", cfg: &lang.Config{Pipelines: []*lang.Pipeline{
			pipe("p", 1, &lang.Stage{ID: "approve", Type: lang.StageHuman, From: "maintainers", Pos: at(2)}),
		}}, errs: []string{`2:3: unknown group "maintainers" in "from" of stage "approve"; define it under "groups" [ref]`}},
		{name: "chatops from", cfg: &lang.Config{Groups: groups, Settings: lang.Settings{Pos: at(1), ChatOpsFromPos: at(1), ChatOpsFrom: []string{"maintainers", "admins"}}, Pipelines: []*lang.Pipeline{
			pipe("p", 5, gateAt("g", 6)),
		}}, errs: []string{`1:3: unknown group "admins" in "settings.chatops.from"; expected one of "maintainers", "security" [ref]`}},
		{name: "request_reviewers and assign", cfg: &lang.Config{Groups: groups, Pipelines: []*lang.Pipeline{
			pipe("p", 1,
				&lang.Stage{ID: "ask", Type: lang.StageAction, Action: lang.ActionRequestReviewers, Config: lang.ActionConfig{Group: "securty"}, Pos: at(2)},
				&lang.Stage{ID: "assign", Type: lang.StageAction, Action: lang.ActionAssign, Config: lang.ActionConfig{Group: "maintainers"}, Pos: at(6)},
			),
		}}, errs: []string{`2:3: unknown group "securty" in "group" of stage "ask"; did you mean "security"? [ref]`}},
		{name: "gate condition", cfg: &lang.Config{Groups: groups, Pipelines: []*lang.Pipeline{
			pipe("p", 1, &lang.Stage{ID: "g", Type: lang.StageGate, Pos: at(2),
				Conditions: []lang.Condition{{Check: "human_approved", Pos: at(4), Eval: groupCheck{}}},
				AnyOf:      [][]lang.Condition{{{Check: "human_approved", Pos: at(7), Eval: groupCheck{}}}},
			}),
		}}, errs: []string{
			`4:3: unknown group "maintainer" in "from" of check "human_approved" in stage "g"; did you mean "maintainers"? [ref]`,
			`7:3: unknown group "maintainer" in "from" of check "human_approved" in stage "g"; did you mean "maintainers"? [ref]`,
		}},
	})
}

func TestCheckRestarts(t *testing.T) {
	withReaction := func(r lang.EventReaction) *lang.Config {
		return &lang.Config{Pipelines: []*lang.Pipeline{{
			Name: "p", Pos: at(1), HasTrigger: true, OnEvents: []lang.EventReaction{r},
			Stages: []*lang.Stage{
				gateAt("test-coverage", 10),
				{ID: "reviews", Type: lang.StageParallel, Pos: at(12), Branches: []*lang.Stage{agentAt("security-review", "sec", 14)}},
			},
		}}}
	}
	restart := func(invalidate []string, from string) lang.EventReaction {
		return lang.EventReaction{Event: "pull_request.synchronize", Action: lang.ReactInvalidateAndRestart, Pos: at(3),
			Invalidate: invalidate, RestartFrom: from}
	}
	runPass(t, checkRestarts, []passCase{
		{name: "stages and branches", cfg: withReaction(restart([]string{"security-review", "reviews"}, "test-coverage"))},
		{name: "current", cfg: withReaction(restart(nil, "current"))},
		{name: "unknown invalidate", cfg: withReaction(restart([]string{"security-reveiw"}, "current")), errs: []string{
			`3:3: unknown stage "security-reveiw" in "invalidate" of the "pull_request.synchronize" reaction of pipeline "p"; did you mean "security-review"? [ref]`,
		}},
		{name: "unknown restart_from", cfg: withReaction(restart(nil, "nowhere")), errs: []string{
			`3:3: unknown stage "nowhere" in "restart_from" of the "pull_request.synchronize" reaction of pipeline "p"; expected one of "test-coverage", "reviews", "current" [ref]`,
		}},
		{name: "restart_from a branch", cfg: withReaction(restart(nil, "security-review")), errs: []string{
			`3:3: unknown stage "security-review" in "restart_from" of the "pull_request.synchronize" reaction of pipeline "p"; expected one of "test-coverage", "reviews", "current" [ref]`,
		}},
		{name: "other reactions are not checked", cfg: withReaction(lang.EventReaction{Action: lang.ReactCancel, RestartFrom: "x"})},
	})
}

func TestCheckReachable(t *testing.T) {
	warn := func(id string, line int, first string) string {
		return at(line).String()[len("p.yaml:"):] + `: stage "` + id + `" is unreachable: no transition leads to it from the first stage "` + first + `" [warning]`
	}
	cfg := func(p *lang.Pipeline) *lang.Config { return &lang.Config{Pipelines: []*lang.Pipeline{p}} }
	runPass(t, checkReachable, []passCase{
		{name: "defaults lead to the next stage", cfg: cfg(pipe("p", 1,
			agentAt("a", "x", 2), gateAt("b", 3),
			&lang.Stage{ID: "c", Type: lang.StageHuman, Pos: at(4)},
			&lang.Stage{ID: "d", Type: lang.StageAction, Pos: at(5)},
			&lang.Stage{ID: "e", Type: lang.StageWebhook, Pos: at(6)},
			&lang.Stage{ID: "f", Type: lang.StageDelay, Pos: at(7)},
			&lang.Stage{ID: "g", Type: lang.StageParallel, Pos: at(8)},
			runs("h", "q", 9),
		))},
		{name: "jumped over", cfg: cfg(pipe("p", 1,
			&lang.Stage{ID: "a", Type: lang.StageGate, OnPass: "c", Pos: at(2)},
			gateAt("b", 3),
			gateAt("c", 4),
		)), warnings: []string{warn("b", 3, "a")}},
		{name: "after a terminal", cfg: cfg(pipe("p", 1,
			&lang.Stage{ID: "a", Type: lang.StageAction, OnSuccess: lang.TargetComplete, Pos: at(2)},
			gateAt("b", 3), gateAt("c", 4),
		)), warnings: []string{warn("b", 3, "a"), warn("c", 4, "a")}},
		{name: "every transition field", cfg: cfg(pipe("p", 1,
			&lang.Stage{ID: "start", Type: lang.StageGate, OnPass: lang.TargetComplete, Pos: at(2),
				OnFail: "s1", OnFailRule: &lang.Rule{Goto: "s2", Then: "s3"}, OnTimeout: &lang.Rule{Then: "s4"}},
			&lang.Stage{ID: "s1", Type: lang.StageAction, OnSuccess: lang.TargetComplete, OnFailure: "s5",
				OnConflict: &lang.Rule{Goto: "s6"}, OnCIFailure: &lang.Rule{Goto: "s7", Then: "s8"}},
			&lang.Stage{ID: "s2", Type: lang.StageAgent, OnComplete: lang.TargetComplete, OnError: &lang.ErrorPolicy{Then: "s9"},
				Verdicts: map[string]*lang.Rule{"on_revise": {Goto: "s10"}, "followup": {Goto: "s11"}}},
			&lang.Stage{ID: "s3", Type: lang.StageParallel, OnComplete: lang.TargetComplete, OnAnyReject: &lang.Rule{Goto: "s12"},
				Branches: []*lang.Stage{{ID: "br", Type: lang.StageAgent, OnError: &lang.ErrorPolicy{Then: "s13"}}}},
			&lang.Stage{ID: "s4", Type: lang.StageDelay, OnComplete: lang.TargetComplete, Poll: &lang.Poll{OnReady: "s14"}},
			&lang.Stage{ID: "s5", Type: lang.StageAgent, OnComplete: lang.TargetComplete, Condition: &lang.Predicate{}, SkipTo: "s15"},
			&lang.Stage{ID: "s6", Type: lang.StageWebhook, OnSuccess: lang.TargetComplete, OnFailure: lang.TargetFail},
			&lang.Stage{ID: "s7", Type: lang.StageHuman, OnComplete: lang.TargetEscalate},
			&lang.Stage{ID: "s8", Type: lang.StagePipeline, OnComplete: lang.TargetCancel},
			&lang.Stage{ID: "s9", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "s10", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "s11", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "s12", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "s13", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "s14", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "s15", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
			&lang.Stage{ID: "orphan", Type: lang.StageAgent, OnComplete: lang.TargetComplete, Pos: at(40)},
		)), warnings: []string{warn("orphan", 40, "start")}},
		{name: "skip_to defaults to the next stage", cfg: cfg(pipe("p", 1,
			&lang.Stage{ID: "a", Type: lang.StageAgent, OnComplete: "c", Condition: &lang.Predicate{}, Pos: at(2)},
			&lang.Stage{ID: "b", Type: lang.StageAgent, OnComplete: lang.TargetComplete, Pos: at(3)},
			&lang.Stage{ID: "c", Type: lang.StageAgent, Pos: at(4)},
		))},
		{name: "restart_from reaches", cfg: &lang.Config{Pipelines: []*lang.Pipeline{{
			Name: "p", Pos: at(1), HasTrigger: true,
			OnEvents: []lang.EventReaction{{Action: lang.ReactInvalidateAndRestart, RestartFrom: "b"}},
			Stages: []*lang.Stage{
				{ID: "a", Type: lang.StageGate, OnPass: lang.TargetComplete, Pos: at(2)},
				gateAt("b", 3),
			},
		}}}},
	})
}

func TestCheckWebhooks(t *testing.T) {
	hook := func(url string) *lang.Config {
		return &lang.Config{
			Settings: lang.Settings{WebhookHosts: []string{"api.example.com", "*.corp.example"}},
			Pipelines: []*lang.Pipeline{pipe("p", 1, &lang.Stage{ID: "w", Type: lang.StageWebhook, Pos: at(2),
				Request: &lang.Request{Pos: at(3), URL: &lang.Template{Src: url, Pos: at(4)}}})},
		}
	}
	runPass(t, checkWebhooks, []passCase{
		{name: "allowed", cfg: hook("https://api.example.com/validate?pr={{ context.pr_number }}")},
		{name: "allowed with a port", cfg: hook("https://API.example.com:8443/validate")},
		{name: "allowed subdomain", cfg: hook("https://ci.corp.example/hook")},
		{name: "templated path", cfg: hook("https://api.example.com/{{ context.path }}")},
		{name: "not allowed", cfg: hook("https://evil.example.com/x"), errs: []string{
			`4:3: webhook host "evil.example.com" is not allowed; settings.webhooks.allow lists "api.example.com", "*.corp.example" [webhook]`,
		}},
		{name: "the bare domain of a wildcard", cfg: hook("https://corp.example/x"), errs: []string{
			`4:3: webhook host "corp.example" is not allowed; settings.webhooks.allow lists "api.example.com", "*.corp.example" [webhook]`,
		}},
		{name: "templated host", cfg: hook("https://{{ context.host }}/x"), errs: []string{
			`4:3: webhook url must have a constant host; move the templates after the host [webhook]`,
		}},
		{name: "templated part of the host", cfg: hook("https://api.example.com{{ context.suffix }}/x"), errs: []string{
			`4:3: webhook url must have a constant host; move the templates after the host [webhook]`,
		}},
		{name: "template for the whole url", cfg: hook("{{ context.url }}"), errs: []string{
			`4:3: webhook url must have a constant host; move the templates after the host [webhook]`,
		}},
		{name: "no host", cfg: hook("/validate"), errs: []string{
			`4:3: webhook url "/validate" has no host; write an absolute https:// url [webhook]`,
		}},
		{name: "no allow list: any host written literally", cfg: &lang.Config{Pipelines: []*lang.Pipeline{pipe("p", 1, &lang.Stage{ID: "w", Type: lang.StageWebhook, Pos: at(2),
			Request: &lang.Request{Pos: at(3), URL: &lang.Template{Src: "https://api.example.com/{{ context.x }}"}}})}}},
		{name: "no allow list, templated host", cfg: &lang.Config{Pipelines: []*lang.Pipeline{pipe("p", 1, &lang.Stage{ID: "w", Type: lang.StageWebhook, Pos: at(2),
			Request: &lang.Request{Pos: at(3), URL: &lang.Template{Src: "https://{{ context.host }}/x"}}})}}, errs: []string{
			`3:3: webhook url must have a constant host; move the templates after the host [webhook]`,
		}},
	})
}
