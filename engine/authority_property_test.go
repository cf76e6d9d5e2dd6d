package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// authorityWorld is a story of one pull request told to Step event by event: people
// approve (reviews, `/pipeline approve`), the author pushes and retargets, comments are
// edited by others, permissions and team membership change. The model keeps what happened
// in words of the story alone, for the oracle.
type authorityWorld struct {
	rng    *rand.Rand
	now    time.Time
	facts  *model.Facts
	perms  map[string]string
	team   []string
	nextID int64
	heads  int
	epoch  int // bumped on every change of base
	// given holds what each person did to approve, as "login head epoch", when they did it
	// as themselves (an edit by someone else gives nothing).
	given map[string]bool
	log   []string
}

var authorityPeople = []string{"alice", "bob", "carol", "dev", "mallory"}

func newAuthorityWorld(seed uint64) *authorityWorld {
	w := &authorityWorld{rng: rand.New(rand.NewPCG(seed, 15)), now: t0, given: map[string]bool{}, nextID: 100,
		perms: map[string]string{"alice": "write", "bob": "write", "carol": "read", "dev": "write", "mallory": "read"},
		team:  []string{"bob"}}
	w.facts = humanFacts()
	w.facts.PR.HeadSHA = "head0"
	return w
}

// refresh makes the facts say what the world says today.
func (w *authorityWorld) refresh() {
	w.facts.People = model.People{Permissions: map[string]string{}}
	for l, p := range w.perms {
		w.facts.People.Permissions[l] = p
	}
	w.facts.TeamMembers = map[string][]string{"acme/maintainers": slices.Clone(w.team)}
	for i := range w.facts.PR.Reviews {
		w.facts.PR.Reviews[i].CanPush = model.PermissionRank[w.perms[w.facts.PR.Reviews[i].Author]] >= model.PermissionRank["write"]
	}
}

func (w *authorityWorld) person() string { return authorityPeople[w.rng.IntN(len(authorityPeople))] }

// act changes the world once and returns the event GitHub would send.
func (w *authorityWorld) act() string {
	w.now = w.now.Add(time.Duration(1+w.rng.IntN(90)) * time.Second)
	pr := w.facts.PR
	key := func(login string) string { return fmt.Sprintf("%s %s %d", strings.ToLower(login), pr.HeadSHA, w.epoch) }
	switch k := w.rng.IntN(10); k {
	case 0, 1:
		who := w.person()
		pr.Reviews = append(pr.Reviews, model.Review{Author: who, State: model.ReviewApproved, CommitSHA: pr.HeadSHA, SubmittedAt: w.now})
		w.given[key(who)] = true
		w.log = append(w.log, who+" approves "+pr.HeadSHA)
		return "pull_request_review.submitted"
	case 2, 3:
		who := w.person()
		w.nextID++
		pr.Comments = append(pr.Comments, model.IssueComment{ID: w.nextID, Author: who, Body: "/pipeline approve", CreatedAt: w.now})
		w.given[key(who)] = true
		w.log = append(w.log, who+" comments /pipeline approve on "+pr.HeadSHA)
		return "issue_comment.created"
	case 4:
		w.nextID++
		who, editor := w.person(), w.person()
		c := model.IssueComment{ID: w.nextID, Author: who, Body: "/pipeline approve", CreatedAt: w.now}
		if editor != who {
			c.EditedBy = editor
		} else {
			w.given[key(who)] = true
		}
		pr.Comments = append(pr.Comments, c)
		w.log = append(w.log, editor+" edits "+who+"'s comment into /pipeline approve")
		return "issue_comment.edited"
	case 5:
		w.heads++
		pr.HeadSHA = fmt.Sprintf("head%d", w.heads)
		w.log = append(w.log, "dev pushes "+pr.HeadSHA)
		return "pull_request.synchronize"
	case 6:
		w.epoch++
		pr.BaseRef = []string{"main", "develop"}[w.epoch%2]
		pr.Timeline = append(pr.Timeline, model.TimelineEvent{Kind: model.TimelineBaseChanged, Label: pr.BaseRef, At: w.now})
		w.log = append(w.log, "dev retargets to "+pr.BaseRef)
		return "pull_request.edited"
	case 7:
		who := w.person()
		w.perms[who] = []string{"read", "write", "maintain"}[w.rng.IntN(3)]
		w.log = append(w.log, who+" now has "+w.perms[who])
		return "pull_request.labeled" // nothing is delivered for it; another event follows
	case 8:
		who := w.person()
		if i := slices.Index(w.team, who); i >= 0 {
			w.team = slices.Delete(w.team, i, i+1)
		} else {
			w.team = append(w.team, who)
		}
		w.log = append(w.log, fmt.Sprintf("the team is now %v", w.team))
		return "pull_request.labeled"
	default:
		if pr.HasLabel("ready") {
			pr.Labels = nil
		} else {
			pr.Labels = []string{"ready"}
		}
		w.log = append(w.log, fmt.Sprintf("labels %v", pr.Labels))
		return "pull_request.labeled"
	}
}

// mayMerge is the oracle: someone who today has write access and is in the maintainers
// group (alice, or the team), and is not the author, approved the head as themselves
// since the last change of base.
func (w *authorityWorld) mayMerge(head string) bool {
	for _, who := range authorityPeople {
		member := who == "alice" || slices.Contains(w.team, who)
		write := model.PermissionRank[w.perms[who]] >= model.PermissionRank["write"]
		if who != "dev" && member && write && w.given[fmt.Sprintf("%s %s %d", who, head, w.epoch)] {
			return true
		}
	}
	return false
}

// TestAuthorityProperty plays random stories: the merge guard never lets a head merge
// that lacks an approval, valid today, of each human stage on its path.
func TestAuthorityProperty(t *testing.T) {
	merges := 0
	for seed := uint64(0); seed < 400; seed++ {
		if authorityStory(t, seed) {
			merges++
		}
	}
	t.Logf("%d of 400 stories merged", merges)
	if merges < 20 {
		t.Fatalf("only %d of 400 stories merged: the property is not exercised", merges)
	}
}

// FuzzAuthority plays the story of a seed the fuzzer picks.
func FuzzAuthority(f *testing.F) {
	f.Add(uint64(1))
	f.Add(uint64(1 << 40))
	f.Fuzz(func(t *testing.T, seed uint64) { authorityStory(t, seed) })
}

// authorityStory plays the story of seed against a pipeline of a human stage of the
// maintainers, a label gate and a merge, fails t on a merge the oracle does not allow, and
// reports whether it merged.
func authorityStory(t *testing.T, seed uint64) bool {
	t.Helper()
	gate := &lang.Stage{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "label ready", Eval: labelCheck("ready")}}}
	cfg := humanConfig(t, 1)
	p := cfg.Pipelines[0]
	p.Stages[0].OnEnter, p.Stages[0].Reminder, p.Stages[0].AutoAssign = nil, nil, false
	p.Stages[0].OnComplete = "ready"
	cfg.Groups[0].Users = []string{"alice"}
	p.Stages = []*lang.Stage{p.Stages[0], gate, p.Stages[1]}
	w := newAuthorityWorld(seed)
	w.refresh()
	res := Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.opened"}, w.facts, w.now)
	for i := 1; i < 40; i++ {
		ev := w.act()
		w.refresh()
		res = Step(cfg, res.State, model.Input{Key: fmt.Sprintf("k%d", i), Event: ev}, w.facts, w.now)
		for _, e := range res.Effects {
			if e.Kind != model.EffectMerge {
				continue
			}
			if !w.mayMerge(e.SHA) {
				t.Fatalf("seed %d: merge of %s without a valid approval; story:\n  %s", seed, e.SHA, strings.Join(w.log, "\n  "))
			}
			return true
		}
	}
	return false
}
