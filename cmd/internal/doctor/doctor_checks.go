package doctor

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine/lang"
)

const grantFix = "grant it in the `permissions:` block of the workflow that runs the action (and of the sweep's and every agent workflow that reports; see the README's permissions table)"

// checkRepository reads the repository's settings; without them nothing else can be
// checked.
func (d *doctor) checkRepository(ctx context.Context) bool {
	s, err := d.client.RepoSettings(ctx)
	if err != nil {
		d.add(findingProblem, "the repository cannot be read: "+err.Error(),
			"check --repo and that the token reaches the repository (a workflow's token reaches only its own)")
		return false
	}
	d.settings, d.branch = s, s.DefaultBranch
	d.add(findingOK, fmt.Sprintf("repository %s/%s, default branch %s", d.client.Owner, d.client.Repo, s.DefaultBranch), "")
	return true
}

// checkConfig reads the config on the default branch with the query a sweep makes, and
// loads it as validate does. It reports whether a config was loaded.
func (d *doctor) checkConfig(ctx context.Context) bool {
	snap, err := d.client.SweepState(ctx, d.branch, d.cfgPath, lang.DefaultStateBranch)
	if err != nil {
		d.add(findingProblem, "the config and the state branch cannot be read (the sweep's query): "+err.Error(), grantFix)
		return false
	}
	if snap.Config == nil {
		d.add(findingProblem, fmt.Sprintf("no config on %s: %s", d.branch, run.ConfigWhere(d.cfgPath)),
			"add the config to the default branch (the README's quick start), or give its path with --config")
		return false
	}
	cfg, err := run.ValidateConfig(snap.Config)
	if err != nil {
		list := run.AsErrorList(err, snap.Config.Files[0].Path)
		list.Sort()
		for _, e := range list {
			d.add(findingProblem, "config: "+e.Error(), "correct it on the default branch (`pipeline-action validate` shows the same)")
		}
		return false
	}
	d.cfg = cfg
	names := make([]string, len(snap.Config.Files))
	for i, f := range snap.Config.Files {
		names[i] = f.Path
	}
	what := fmt.Sprintf("config %s on %s validates: %d %s", run.JoinAnd(names), d.branch, len(cfg.Pipelines),
		run.Plural(len(cfg.Pipelines), "pipeline", "pipelines"))
	if n := len(cfg.Warnings); n > 0 {
		what += fmt.Sprintf(", %d %s (`pipeline-action validate` lists them)", n, run.Plural(n, "warning", "warnings"))
	}
	d.add(findingOK, what, "")
	return true
}

// scopeNeed is a scope the config needs, at a level, and why.
type scopeNeed struct {
	scope, level, why string
}

// scopesNeeded are the scopes the action needs for cfg (nil: for any config). Every run
// reads the pull request, its checks (statusCheckRollup: statuses and check runs, and the
// workflow run of each check suite) and writes the state branch and the state comment.
func scopesNeeded(cfg *lang.Config) []scopeNeed {
	needs := []scopeNeed{
		{"contents", "write", "the state branch, merges, deleting a merged branch"},
		{"pull-requests", "write", "reading pull requests and reviews; the state comment, labels, review requests"},
		{"statuses", "read", "commit statuses among a pull request's checks"},
		{"checks", "read", "check runs among a pull request's checks"},
		{"actions", "read", "the workflow of each check run"},
	}
	if cfg == nil {
		return needs
	}
	if slices.ContainsFunc(cfg.Agents, func(a *lang.Agent) bool { return a.Dispatch == lang.DispatchWorkflow }) {
		needs[4] = scopeNeed{"actions", "write", "dispatching the workflows of agents with dispatch: workflow"}
	}
	if cfg.Settings.StatusCheck {
		needs[2] = scopeNeed{"statuses", "write", "each pipeline's commit status (settings.status_check)"}
	}
	if usesIssues(cfg) {
		needs = append(needs, scopeNeed{"issues", "write", "issue pipelines, create_issue, close_issue"})
	}
	return needs
}

// usesIssues reports whether a pipeline runs on issues or acts on them.
func usesIssues(cfg *lang.Config) bool {
	for _, p := range cfg.Pipelines {
		if p.Scope == lang.ScopeIssue {
			return true
		}
		issues := false
		walkStages(p.Stages, func(s *lang.Stage) {
			if s.Action == lang.ActionCreateIssue || s.Action == lang.ActionCloseIssue {
				issues = true
			}
		})
		for _, items := range [][]lang.ActionItem{p.OnComplete, p.OnError} {
			for _, a := range items {
				issues = issues || a.Action == lang.ActionCreateIssue || a.Action == lang.ActionCloseIssue
			}
		}
		if issues {
			return true
		}
	}
	return false
}

// walkStages calls f on every stage of stages and of their parallel branches.
func walkStages(stages []*lang.Stage, f func(*lang.Stage)) {
	for _, s := range stages {
		f(s)
		walkStages(s.Branches, f)
	}
}

// checkReadScopes makes, for each read scope the action needs, a read GitHub refuses to a
// token without it, and reports GitHub's answer.
func (d *doctor) checkReadScopes(ctx context.Context) {
	for _, n := range scopesNeeded(d.cfg) {
		if !slices.Contains(ghapi.ReadProbes, n.scope) {
			continue
		}
		asked, err := d.client.ProbeRead(ctx, n.scope, d.branch)
		if err != nil {
			// go-github ends its message with the list of field errors, empty here.
			msg := strings.TrimSuffix(err.Error(), " []")
			d.add(findingProblem, fmt.Sprintf("token scope `%s: read` (%s): %s: %s", n.scope, n.why, asked, msg),
				fmt.Sprintf("grant `%s: %s`: %s", n.scope, n.level, grantFix))
			continue
		}
		d.add(findingOK, fmt.Sprintf("token scope `%s: read`: GitHub answered %s", n.scope, asked), "")
	}
}

// checkWriteScopes lists the write scopes the config needs: a workflow token's scopes are
// shown by no API, and a write cannot be tried without writing, which doctor never does.
func (d *doctor) checkWriteScopes() {
	for _, n := range scopesNeeded(d.cfg) {
		if n.level != "write" {
			continue
		}
		d.add(findingUnverified, fmt.Sprintf("token scope `%s: write` (%s): GitHub shows no token's write scopes without a write",
			n.scope, n.why), fmt.Sprintf("make sure the workflow's `permissions:` block has `%s: write`", n.scope))
	}
}

// checkMergeMethods compares the merge methods of the config's merge_pr stages with the
// repository's settings.
func (d *doctor) checkMergeMethods() {
	uses := map[string][]string{} // method → where
	for _, p := range d.cfg.Pipelines {
		walkStages(p.Stages, func(s *lang.Stage) {
			if s.Action != lang.ActionMergePR {
				return
			}
			m := s.Config.Method
			if m == "" {
				m = "merge"
			}
			uses[m] = append(uses[m], fmt.Sprintf("%s:%d:%d (%s.%s)", s.Pos.File, s.Pos.Line, s.Pos.Col, p.Name, s.ID))
		})
	}
	if len(uses) == 0 {
		d.add(findingOK, "merge methods: no merge_pr stage", "")
		return
	}
	methods := make([]string, 0, len(uses))
	for m := range uses {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	for _, m := range methods {
		if d.settings.MergeMethods[m] {
			d.add(findingOK, fmt.Sprintf("merge method %s: allowed by the repository's settings", m), "")
			continue
		}
		d.add(findingProblem, fmt.Sprintf("merge method %s, used at %s: the repository's settings do not allow it", m, strings.Join(uses[m], ", ")),
			fmt.Sprintf("allow %s in Settings → General → Pull Requests, or set merge_pr's method: to one the repository allows (%s)",
				methodSetting[m], strings.Join(allowedMethods(d.settings), ", ")))
	}
}

// methodSetting names the repository setting of each merge method.
var methodSetting = map[string]string{"merge": "merge commits", "squash": "squash merging", "rebase": "rebase merging"}

func allowedMethods(s *ghapi.RepoSettings) []string {
	var out []string
	for _, m := range []string{"merge", "squash", "rebase"} {
		if s.MergeMethods[m] {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// checkStateBranch reads whether the state branch is protected: the action commits to it
// with its token, which a protection rule would refuse.
func (d *doctor) checkStateBranch(ctx context.Context) {
	b := d.cfg.Settings.StateBranch
	exists, protected, err := d.client.BranchProtected(ctx, b)
	switch {
	case err != nil:
		d.add(findingProblem, "state branch "+b+": "+err.Error(), grantFix)
	case !exists:
		d.add(findingOK, "state branch "+b+" does not exist yet: the action creates it at its first run (with `contents: write`)", "")
	case protected:
		d.add(findingProblem, "state branch "+b+" is protected: the action's commits to it would be refused",
			"remove the branch protection rule that matches "+b+" (the action alone writes it; with signing_key set, only its states are trusted)")
	default:
		d.add(findingOK, "state branch "+b+": no branch protection", "")
	}
	d.checkStateBranchRules(ctx, b)
}

// writeRules are the ruleset rules that refuse the action's writes to the state branch
// (creating it, committing to it, deleting it, moving it), unless it may bypass the ruleset.
var writeRules = map[string]bool{"creation": true, "update": true, "deletion": true, "non_fast_forward": true}

// checkStateBranchRules reads the rules that apply to the state branch. GitHub lists the
// rules, not who may bypass their rulesets, so a restricting rule is a problem unless the
// action's identity is on the bypass list, which the fix says.
func (d *doctor) checkStateBranchRules(ctx context.Context, b string) {
	rules, err := d.client.BranchRules(ctx, b)
	if err != nil {
		d.add(findingProblem, "rulesets on "+b+": "+err.Error(), grantFix)
		return
	}
	type ruleset struct {
		source string
		id     int64
	}
	var order []ruleset
	restricting := map[ruleset][]string{}
	var others []string
	for _, r := range rules {
		rs := ruleset{r.RulesetSource, r.RulesetID}
		if !writeRules[r.Type] {
			others = append(others, fmt.Sprintf("%s (ruleset %d of %s)", r.Type, r.RulesetID, r.RulesetSource))
			continue
		}
		if restricting[rs] == nil {
			order = append(order, rs)
		}
		restricting[rs] = append(restricting[rs], r.Type)
	}
	// A ruleset the action may bypass is the setup the docs recommend (only the action writes
	// the state branch), and GitHub does not say through this endpoint who may bypass one:
	// the check cannot tell that setup from one that shuts the action out, so it says so.
	for _, rs := range order {
		d.add(findingUnverified, fmt.Sprintf("rulesets on %s: ruleset %d of %s has the rules %s: the action writes the state branch only if its identity may bypass the ruleset (GitHub does not show who may), else it keeps its state in the comment alone",
			b, rs.id, rs.source, strings.Join(restricting[rs], ", ")),
			"check that the action's app is on the ruleset's bypass list (Settings → Rules → Rulesets), or exclude "+b+" from the ruleset")
	}
	if len(order) == 0 {
		d.add(findingOK, "rulesets on "+b+": no rule restricts creating, updating or deleting it", "")
	}
	if len(others) > 0 {
		d.add(findingUnverified, "rulesets on "+b+": other rules apply, not checked: "+strings.Join(others, ", "),
			"check in Settings → Rules → Rulesets that these rules let the action commit to "+b)
	}
}
