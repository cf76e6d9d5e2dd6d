package gates

import (
	"cmp"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

const (
	head = "abc1234def5678"
	old  = "0ld0000aaaa111"
)

// prOpt changes the pull request a test builds.
type prOpt func(*model.PullRequest)

// facts returns facts about an open PR by "author" on head, changed by opts.
func facts(opts ...prOpt) *model.Facts {
	pr := &model.PullRequest{Number: 7, State: model.PROpen, Author: "author", BaseRef: "main", HeadSHA: head}
	for _, o := range opts {
		o(pr)
	}
	return &model.Facts{Repo: "org/repo", DefaultBranch: "main", PR: pr}
}

func labels(ls ...string) prOpt {
	return func(pr *model.PullRequest) { pr.Labels = append(pr.Labels, ls...) }
}

// review adds a review by user in state on commit sha, by someone with write access.
func review(user, state, sha string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Reviews = append(pr.Reviews, model.Review{Author: user, State: state, CommitSHA: sha, CanPush: true})
	}
}

// readOnly adds a review by a user without write access.
func readOnly(user, state, sha string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Reviews = append(pr.Reviews, model.Review{Author: user, State: state, CommitSHA: sha})
	}
}

// botReview adds a review by an app with write access.
func botReview(user, state, sha string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Reviews = append(pr.Reviews, model.Review{Author: user, State: state, CommitSHA: sha, CanPush: true, IsBot: true})
	}
}

func check(name, state string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Checks = append(pr.Checks, model.CheckResult{Name: name, Kind: "check_run", State: state})
	}
}

// compile compiles gate g over the condition given as YAML flow mapping params ("{count: 2}").
func compile(t *testing.T, g engine.Gate, check, params string) (engine.Check, []*lang.Error) {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(params), &n))
	m := n.Content[0]
	keys := map[string]*yaml.Node{}
	kpos := map[string]lang.Pos{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		keys[m.Content[i].Value] = m.Content[i+1]
		kpos[m.Content[i].Value] = lang.Pos{Line: m.Content[i].Line, Col: m.Content[i].Column}
	}
	p := lang.NewParams("t.yaml", check, lang.Pos{File: "t.yaml", Line: 1, Col: 1}, keys, kpos)
	c, err := g.Compile(p)
	require.NoError(t, err)
	require.Empty(t, p.Unused(), "every parameter is read")
	return c, p.Errors()
}

// mustCompile compiles and requires that the parameters are valid.
func mustCompile(t *testing.T, g engine.Gate, check, params string) engine.Check {
	t.Helper()
	c, errs := compile(t, g, check, params)
	require.Empty(t, errs)
	require.NotNil(t, c)
	return c
}

// gateCase is one evaluation of a gate: its parameters (none: the test's default) over facts,
// and the result it gives (its Check is filled in).
type gateCase struct {
	name   string
	params string
	facts  *model.Facts
	want   model.GateResult
}

// assertEvaluates compiles g as check with each case's parameters and compares what it
// evaluates the case's facts to with the case's result.
func assertEvaluates(t *testing.T, g engine.Gate, check, defaultParams string, cases []gateCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, g, check, cmp.Or(tt.params, defaultParams))
			tt.want.Check = check
			assert.Equal(t, tt.want, c.Evaluate(tt.facts))
		})
	}
}

// paramCase is parameters a gate refuses and the errors it gives for them.
type paramCase struct{ name, params, want string }

// assertRefuses compiles g as check with each case's parameters and requires the case's
// errors and, where noCheck, that no check comes with them (some gates return their
// defaults beside the errors).
func assertRefuses(t *testing.T, g engine.Gate, check string, noCheck bool, cases []paramCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			c, errs := compile(t, g, check, tt.params)
			if noCheck {
				require.Nil(t, c)
			}
			assert.Equal(t, tt.want, lang.ErrorList(errs).Error())
		})
	}
}
