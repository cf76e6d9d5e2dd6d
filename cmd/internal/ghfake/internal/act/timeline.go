package act

import (
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// ChangeBase retargets the pull request to base as user, records a BaseRefChangedEvent
// and returns pull_request/edited with changes.base, as GitHub sends it.
func (s *PRs) ChangeBase(repoName string, number int, base, user string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	if user == "" {
		user = pr.Author
	}
	from, fromSHA := pr.Base, pr.BaseSHA
	pr.Base, pr.BaseSHA, pr.UpdatedAt = base, s.EnsureBranch(r, base).Head, s.Clock()
	s.Record(pr, "BaseRefChangedEvent", user, func(e *world.TimelineEvent) { e.From, e.To = from, base })
	changes := shapes.Obj{"base": shapes.Obj{"ref": shapes.Obj{"from": from}, "sha": shapes.Obj{"from": fromSHA}}}
	return s.PREvent(r, pr, "edited", user, shapes.Obj{"changes": changes})
}
