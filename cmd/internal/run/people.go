package run

import (
	"context"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// StepWithPeople is engine.Step with the people it needs read first (engine.PeopleNeeded: team
// members and permissions for human stages and /pipeline commands). A run that Step
// starts or moves to a human stage may need more than the state before it named: those
// are read too, and Step is evaluated again on them (it is pure). Nothing is read for a
// subject whose runs need no one. What GitHub shows of the dispatches whose outcome the
// state does not hold yet is read first too.
func StepWithPeople(ctx context.Context, client *ghapi.Client, cfg *lang.Config, st *engine.State, in engine.Input, f *engine.Facts, now time.Time, warn func(string, ...any)) (engine.Result, error) {
	read := func(needs engine.Needs) error {
		needs = unread(f, needs)
		if needs.Empty() {
			return nil
		}
		teams, people, err := client.People(ctx, needs, warn)
		if err != nil {
			return err
		}
		if f.TeamMembers == nil {
			f.TeamMembers = map[string][]string{}
		}
		if f.People.Permissions == nil {
			f.People.Permissions = map[string]string{}
		}
		for k, v := range teams {
			f.TeamMembers[k] = v
		}
		for k, v := range people.Permissions {
			f.People.Permissions[k] = v
		}
		return nil
	}
	lookUpDispatches(ctx, client, st, f, warn)
	needs := engine.PeopleNeeded(cfg, st, f)
	react := engine.ReactionNeeds(cfg, st, in)
	needs.Permissions, needs.Teams = append(needs.Permissions, react.Permissions...), append(needs.Teams, react.Teams...)
	if err := read(needs); err != nil {
		return engine.Result{}, err
	}
	res := engine.Step(cfg, st, in, f, now)
	if read, err := readFilesIfNeeded(ctx, client, res, f); err != nil {
		return engine.Result{}, err
	} else if read {
		res = engine.Step(cfg, st, in, f, now)
	}
	if more := unread(f, engine.PeopleNeeded(cfg, res.State, f)); !more.Empty() {
		if err := read(more); err != nil {
			return engine.Result{}, err
		}
		res = engine.Step(cfg, st, in, f, now)
	}
	return res, nil
}

// unread is what of needs the facts do not hold yet.
func unread(f *engine.Facts, needs engine.Needs) engine.Needs {
	var out engine.Needs
	seen := map[string]bool{} // a team or login two needs name is read once
	for _, t := range needs.Teams {
		if _, ok := f.TeamMembers[strings.ToLower(t)]; !ok && !seen["team "+strings.ToLower(t)] {
			seen["team "+strings.ToLower(t)] = true
			out.Teams = append(out.Teams, t)
		}
	}
	for _, l := range needs.Permissions {
		if _, ok := f.People.Permissions[strings.ToLower(l)]; !ok && !seen[strings.ToLower(l)] {
			seen[strings.ToLower(l)] = true
			out.Permissions = append(out.Permissions, l)
		}
	}
	return out
}
