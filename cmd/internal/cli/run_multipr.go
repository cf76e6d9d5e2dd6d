package cli

import (
	"context"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
)

// Multi-PR runs (engine/step_multipr.go): an issue's runs whose pull requests may live in
// other repositories. Their invocation reads, in the one query after the state (the
// snapshot read the issue and what the event named), every pull request the unfinished runs
// name that was not read — of this repository and of others — and the pull request a
// report's outputs.pr names in its stage's `config.repo`.

// issuePRsWith is issuePRs for issues whose runs name pull requests of other repositories
// too: the missing ones of both kinds are read in one query.
func (r *runner) issuePRsWith(ctx context.Context, client *ghapi.Client, cfg *engine.Config, f *engine.Facts, st *engine.State, rep *engine.Report) error {
	if f.Issue == nil {
		return nil
	}
	if f.PRs == nil {
		f.PRs = map[int]*engine.PullRequest{}
	}
	if f.Others == nil {
		f.Others = map[string]*engine.PullRequest{}
	}
	var missing []int
	var others []engine.PRRef
	want := map[string]bool{}
	need := func(ref engine.PRRef) {
		if ref.Number <= 0 || want[ref.Key()] {
			return
		}
		want[ref.Key()] = true
		if ref.Repo == "" || strings.EqualFold(ref.Repo, f.Repo) {
			if _, ok := f.PRs[ref.Number]; !ok {
				missing = append(missing, ref.Number)
			}
			return
		}
		if _, ok := f.Others[ref.Key()]; !ok {
			others = append(others, ref)
		}
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		for _, ref := range engine.RunPRRefs(run, f.Repo) {
			need(ref)
		}
		if ref, ok := engine.ParsePRRef(run.Context["pr_number"]); ok {
			need(ref)
		}
	}
	if ref, ok := reportRef(cfg, st, rep); ok {
		need(ref)
	}
	if len(missing) == 0 && len(others) == 0 {
		return nil
	}
	own, got, err := client.ReadPRsWith(ctx, missing, others)
	if err != nil {
		return err
	}
	for n, pr := range own {
		f.PRs[n] = pr
	}
	for k, pr := range got {
		f.Others[k] = pr
	}
	return nil
}

// reportRef is the pull request a report of a multi-PR run names in another repository: its
// outputs.pr, "owner/name#N", or N of its stage's `config.repo` (written literally).
func reportRef(cfg *engine.Config, st *engine.State, rep *engine.Report) (engine.PRRef, bool) {
	if rep == nil || rep.Outputs == nil || cfg == nil || st == nil {
		return engine.PRRef{}, false
	}
	ref, ok := engine.ParsePRRef(rep.Outputs["pr"])
	if !ok {
		return ref, false
	}
	named := ref.Repo
	ref.Repo = ""
	for _, run := range st.Runs {
		if run.ID != rep.Run {
			continue
		}
		p := cfg.PipelineFor(run)
		if !p.IsMultiPR() {
			return engine.PRRef{}, false
		}
		for _, s := range p.Stages {
			if s.ID != rep.Stage {
				continue
			}
			for _, kv := range s.Values {
				if kv.Key == "repo" && kv.Value.Template == nil {
					ref.Repo = strings.TrimSpace(kv.Value.Scalar)
				}
			}
		}
	}
	// Only a pull request of the stage's own repository is read (the engine refuses any
	// other): a report cannot make the action read a repository the config does not name.
	if ref.Repo == "" || (named != "" && !strings.EqualFold(named, ref.Repo)) {
		return engine.PRRef{}, false
	}
	return ref, true
}

// applyToOtherFacts records a performed merge of a pull request of another repository.
func applyToOtherFacts(f *engine.Facts, e engine.Effect) {
	pr := f.Others[engine.PRRef{Repo: e.Repo, Number: e.Number}.Key()]
	if pr != nil && e.Kind == engine.EffectMerge {
		pr.State = engine.PRMerged
	}
}
