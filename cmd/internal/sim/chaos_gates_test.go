package sim

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// chaosCondition is one condition of a gate of a chaos config, as its pipelines.yaml writes
// it: the check and its parameters.
type chaosCondition map[string]any

func (c chaosCondition) check() string { s, _ := c["check"].(string); return s }

// chaosGateSpec is what the judge reads of a chaos config: the conditions of every gate of
// the pipeline (each stands on the way to the merge) and the groups they may name.
type chaosGateSpec struct {
	conditions []chaosCondition
	groups     map[string][]string // group → its users
}

var (
	chaosSpecsMu sync.Mutex
	chaosSpecs   = map[string]*chaosGateSpec{}
)

// gateSpec reads the gates of cfg's pipelines.yaml (once).
func (cfg *chaosConfig) gateSpec() (*chaosGateSpec, error) {
	chaosSpecsMu.Lock()
	defer chaosSpecsMu.Unlock()
	if s := chaosSpecs[cfg.name]; s != nil {
		return s, nil
	}
	b, err := os.ReadFile(filepath.Join("testdata", "chaos", cfg.name, "pipelines.yaml"))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Groups    map[string]struct{ Users []string } `yaml:"groups"`
		Pipelines map[string]struct {
			Stages []struct {
				Type       string           `yaml:"type"`
				Conditions []chaosCondition `yaml:"conditions"`
			} `yaml:"stages"`
		} `yaml:"pipelines"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("chaos config %s: %w", cfg.name, err)
	}
	spec := &chaosGateSpec{groups: map[string][]string{}}
	for g, v := range doc.Groups {
		spec.groups[g] = v.Users
	}
	for _, st := range doc.Pipelines[chaosPipeline].Stages {
		if st.Type == "gate" {
			spec.conditions = append(spec.conditions, st.Conditions...)
		}
	}
	if len(spec.conditions) == 0 {
		return nil, fmt.Errorf("chaos config %s: pipeline %s has no gate to judge a merge by", cfg.name, chaosPipeline)
	}
	chaosSpecs[cfg.name] = spec
	return spec, nil
}

// unheld says which conditions of the config's gates did not hold on m (a merge as the fake
// recorded it, or what stands on the pull request now), each with why; none when all held.
// The judge reads GitHub's records as GitHub would decide, not as the action did: a review
// counts as its author's latest approving, changes-requesting or dismissed review (a comment
// changes no one's decision, as in reviewDecision), from someone with write access then.
func (spec *chaosGateSpec) unheld(m ghfake.MergeRecord) []string {
	var out []string
	for _, c := range spec.conditions {
		if why := spec.judgeCondition(c, m); why != "" {
			out = append(out, c.check()+": "+why)
		}
	}
	return out
}

func (spec *chaosGateSpec) judgeCondition(c chaosCondition, m ghfake.MergeRecord) string {
	for k := range c {
		if !slices.Contains([]string{"check", "count", "from", "expect", "label"}, k) {
			return fmt.Sprintf("the chaos judge does not know parameter %q (teach it, chaos_gates_test.go)", k)
		}
	}
	latest := latestDecisions(m)
	switch c.check() {
	case "human_approved":
		count := 1
		if n, ok := c["count"].(int); ok {
			count = n
		}
		var who []string
		for _, u := range slices.Sorted(maps.Keys(latest)) {
			rv := latest[u]
			if rv.State == "APPROVED" && rv.CommitID == m.HeadSHA && chaosCanPush(rv.Permission) && spec.inGroup(c, u) {
				who = append(who, u)
			}
		}
		if len(who) < count {
			return fmt.Sprintf("%d write approval(s) of head %s stood (%v), %d needed; reviews %v", len(who), short(m.HeadSHA), who, count, m.Reviews)
		}
	case "no_changes_requested":
		var who []string
		for _, u := range slices.Sorted(maps.Keys(latest)) {
			if rv := latest[u]; rv.State == "CHANGES_REQUESTED" && chaosCanPush(rv.Permission) {
				who = append(who, u)
			}
		}
		if len(who) > 0 {
			return fmt.Sprintf("changes requested by %v stood; reviews %v", who, m.Reviews)
		}
	case "ci_status":
		if e, ok := c["expect"]; ok && e != "success" {
			return fmt.Sprintf("the chaos judge knows only expect: success, not %v", e)
		}
		if !ciGreen(m) {
			return fmt.Sprintf("CI was not green on head %s (checks %v, statuses %v)", short(m.HeadSHA), m.Checks, m.Statuses)
		}
	case "label_present":
		l, _ := c["label"].(string)
		if !slices.ContainsFunc(m.Labels, func(x string) bool { return strings.EqualFold(x, l) }) {
			return fmt.Sprintf("label %q was not on it (labels %v)", l, m.Labels)
		}
	default:
		return "the chaos judge does not know this check (teach it, chaos_gates_test.go)"
	}
	return ""
}

// latestDecisions is each reviewer's latest review that decides (approved, changes
// requested, dismissed), the author's and apps' left out.
func latestDecisions(m ghfake.MergeRecord) map[string]ghfake.ReviewRecord {
	latest := map[string]ghfake.ReviewRecord{}
	for _, rv := range m.Reviews {
		if rv.State == "COMMENTED" || rv.State == "PENDING" || rv.User == m.Author || strings.HasSuffix(rv.User, "[bot]") {
			continue
		}
		latest[rv.User] = rv
	}
	return latest
}

func (spec *chaosGateSpec) inGroup(c chaosCondition, user string) bool {
	g, ok := c["from"].(string)
	return !ok || slices.Contains(spec.groups[g], user)
}

func chaosCanPush(perm string) bool {
	return perm != "" && slices.Contains(strings.Fields(chaosWritePerm), perm)
}

// ciGreen: every check run and the latest commit status of each context on the head had
// succeeded, and there was at least one.
func ciGreen(m ghfake.MergeRecord) bool {
	green := len(m.Checks)+len(m.Statuses) > 0
	for _, c := range m.Checks {
		green = green && c.Status == "completed" && c.Conclusion == "success"
	}
	last := map[string]string{}
	for _, st := range m.Statuses {
		last[st.Context] = st.State
	}
	for _, st := range last {
		green = green && st == "success"
	}
	return green
}

func short(sha string) string { return sha[:min(7, len(sha))] }
