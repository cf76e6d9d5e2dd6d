package lang

import (
	"sort"
	"strings"
)

// Successors returns every target stage i of p may move to, terminal targets
// included: each transition it (or one of its branches) writes, and the next stage
// where an empty transition means "the next stage" (on_pass of a gate, on_success
// of an action or webhook, on_complete of the other types, skip_to of a stage with a
// condition).
func Successors(p *Pipeline, i int) []string {
	s := p.Stages[i]
	next := TargetComplete
	if i+1 < len(p.Stages) && p.Stages[i+1] != nil {
		next = p.Stages[i+1].ID
	}
	orNext := func(t string) string {
		if t == "" {
			return next
		}
		return t
	}
	out := Transitions(s)
	switch s.Type {
	case StageGate:
		out = append(out, orNext(s.OnPass))
	case StageAction, StageWebhook:
		out = append(out, orNext(s.OnSuccess))
	default:
		out = append(out, orNext(s.OnComplete))
	}
	if s.Condition != nil {
		out = append(out, orNext(s.SkipTo))
	}
	for _, b := range s.Branches {
		if b != nil {
			out = append(out, Transitions(b)...)
		}
	}
	return out
}

// Transitions returns the targets s writes explicitly, in a fixed order; empty ones
// are left out.
func Transitions(s *Stage) []string {
	var out []string
	add := func(ts ...string) {
		for _, t := range ts {
			if t != "" {
				out = append(out, t)
			}
		}
	}
	rule := func(r *Rule) {
		if r != nil {
			add(r.Goto, r.Then)
		}
	}
	add(s.OnPass, s.OnFail, s.OnSuccess, s.OnFailure, s.OnComplete, s.SkipTo)
	rule(s.OnFailRule)
	rule(s.OnTimeout)
	rule(s.OnAnyReject)
	rule(s.OnConflict)
	rule(s.OnCIFailure)
	for _, v := range SortedVerdicts(s.Verdicts) {
		rule(s.Verdicts[v])
	}
	if s.OnError != nil {
		add(s.OnError.Then)
	}
	if s.Poll != nil {
		add(s.Poll.OnReady)
	}
	return out
}

// SortedVerdicts returns the keys of m in a fixed order: the verdicts of the
// language first, in the order docs/language.md lists them, then any other in name order.
// A key may be written with or without its "on_" prefix.
func SortedVerdicts(m map[string]*Rule) []string {
	order := []string{VerdictComplete, VerdictFollowup, VerdictFailed, VerdictApprove, VerdictReject, VerdictRevise}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		for i, v := range order {
			if VerdictName(k) == v {
				return i
			}
		}
		return len(order)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank(keys[i]), rank(keys[j])
		if ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// VerdictName returns the verdict a key of Stage.Verdicts stands for: "revise" for
// "on_revise" or "revise".
func VerdictName(key string) string { return strings.TrimPrefix(key, "on_") }
