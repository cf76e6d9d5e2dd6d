package core

import (
	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"
)

// Rules are the rules of authority on the facts as this evaluation reads them now (the
// facts it reads change while it evaluates an issue's run on its pull request).
func (e *Eval) Rules() *authority.Rules {
	r := &authority.Rules{Cfg: e.Cfg, Facts: e.Facts, Now: e.Now, Subject: e}
	if e.Issue != nil {
		r.Issue = e.Issue.Issue
	}
	return r
}

// RunAuthors lists the authors of the pull requests run would merge when it is an issue's
// or a multi-PR run (a pull request's own run has its subject's author only).
func (e *Eval) RunAuthors(run *model.Run) []string {
	if run == nil || e.Issue == nil {
		return nil
	}
	var out []string
	if pr := e.RunPR(run); pr != nil {
		out = append(out, pr.Author)
	}
	if p := e.Cfg.PipelineFor(run); p.IsMultiPR() {
		for _, ref := range model.RunPRRefs(run, e.Issue.Base.Repo) {
			if pr := e.PrOf(ref); pr != nil {
				out = append(out, pr.Author)
			}
		}
	}
	return out
}

// NoteHeads records the head of every open run's pull request as seen now, and when a
// run first saw it after another (Run.HeadSince).
func (e *Eval) NoteHeads() {
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		e.NoteHead(run)
	}
}

func (e *Eval) NoteHead(run *model.Run) {
	head := e.HeadOf(run)
	if head == "" || head == run.Head {
		return
	}
	if run.Head != "" {
		run.HeadSince = e.Now
	}
	run.Head = head
}
