package run

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// Multi-PR runs: an issue's runs whose pull requests may live in
// other repositories. Their invocation reads, in the one query after the state (the
// snapshot read the issue and what the event named), every pull request the unfinished runs
// name that was not read — of this repository and of others — and the pull request a
// report's outputs.pr names in its stage's `config.repo`.

// issuePRsWith is issuePRs for issues whose runs name pull requests of other repositories
// too: the missing ones of both kinds are read in one query.
func (r *Runner) issuePRsWith(ctx context.Context, client *ghapi.Client, cfg *lang.Config, f *engine.Facts, st *engine.State, rep *engine.Report) error {
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
func reportRef(cfg *lang.Config, st *engine.State, rep *engine.Report) (engine.PRRef, bool) {
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

// followRefs carries the event on across repositories (multi-PR runs):
//
//   - from an issue's invocation whose runs gained pull requests named owner/name#N: each
//     pull request's own state records the follower — with the issue's repository when the
//     pull request is in another one, written there with the same token (which must reach
//     it; a repository that has no config of the action records nothing: it does not run
//     the action, and the sweep follows the run instead);
//   - from a pull request's invocation whose state names followers of another repository:
//     each such issue is evaluated there, with this invocation's token, reading this pull
//     request in the issue's one query.
//
// It returns what failed, for the job log; the event's own subject is done.
func (r *Runner) followRefs(ctx context.Context, client *ghapi.Client, ev routed, number int, key string, a *attempt) []string {
	if ev.follower != nil {
		return nil
	}
	var errs []string
	own := client.Owner + "/" + client.Repo
	if a.issue {
		refs := make([]engine.PRRef, 0, len(a.refs))
		for ref := range a.refs {
			refs = append(refs, ref)
		}
		sort.Slice(refs, func(i, j int) bool { return refs[i].Key() < refs[j].Key() })
		for _, ref := range refs {
			c, next, err := r.otherSubject(ctx, client, ev, ref.Repo)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: recording its followers: %v", ref, err))
				continue
			}
			for _, f := range a.refs[ref] {
				fl := f
				if !strings.EqualFold(ref.Repo, own) {
					fl.Repo = own
				}
				n := next
				n.follower = &fl
				r.act.Infof("pipeline-action: #%d: run %s follows %s; recording it there", number, f.Run, ref)
				if _, err := r.subject(ctx, c, n, ref.Number, key+"/follow"); err != nil {
					errs = append(errs, fmt.Sprintf("%s: recording that run %s follows it: %v", ref, f.Run, err))
				}
			}
		}
		return errs
	}
	seen := map[string]bool{}
	for _, f := range a.followers {
		if f.Repo == "" || strings.EqualFold(f.Repo, own) || seen[strings.ToLower(f.Repo)+"#"+strconv.Itoa(f.Issue)] {
			continue
		}
		seen[strings.ToLower(f.Repo)+"#"+strconv.Itoa(f.Issue)] = true
		c, next, err := r.otherSubject(ctx, client, ev, f.Repo)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s#%d (following #%d): %v", f.Repo, f.Issue, number, err))
			continue
		}
		next.Issue, next.followRefs = true, []engine.PRRef{{Repo: own, Number: number}}
		r.act.Infof("pipeline-action: #%d is followed by run %s of %s#%d; evaluating it there", number, f.Run, f.Repo, f.Issue)
		if _, err := r.subject(ctx, c, next, f.Issue, key); err != nil {
			errs = append(errs, fmt.Sprintf("%s#%d (following #%d): %v", f.Repo, f.Issue, number, err))
		}
	}
	return errs
}

// otherSubject is the client and the routed event of a subject of repository repo (this
// one, or another: then its default branch is read, one request).
func (r *Runner) otherSubject(ctx context.Context, client *ghapi.Client, ev routed, repo string) (*ghapi.Client, routed, error) {
	next := routed{Handled: true, Event: ev.Event, Repo: ev.Repo, DefaultBranch: ev.DefaultBranch, Actor: ev.Actor}
	if strings.EqualFold(repo, client.Owner+"/"+client.Repo) {
		return client, next, nil
	}
	c, err := client.In(repo)
	if err != nil {
		return nil, next, err
	}
	if next.DefaultBranch, err = c.DefaultBranch(ctx); err != nil {
		return nil, next, err
	}
	next.Repo = c.Owner + "/" + c.Repo
	return c, next, nil
}
