package act

import (
	"fmt"

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

// SetDraft marks the pull request ready for review (draft false) or converts it to a draft
// (draft true) as user, records the ReadyForReviewEvent or ConvertToDraftEvent and returns
// pull_request/ready_for_review or pull_request/converted_to_draft. GitHub refuses the change
// that would leave the flag as it is, and a closed pull request's.
func (s *PRs) SetDraft(repoName string, number int, draft bool, user string) (shapes.Event, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	if user == "" {
		user = pr.Author
	}
	action, kind := "ready_for_review", "ReadyForReviewEvent"
	if draft {
		action, kind = "converted_to_draft", "ConvertToDraftEvent"
	}
	switch {
	case pr.State != "open":
		return shapes.Event{}, fmt.Errorf("#%d is %s: only an open pull request changes its draft state", number, pr.State)
	case pr.Draft == draft && draft:
		return shapes.Event{}, fmt.Errorf("#%d is a draft already", number)
	case pr.Draft == draft:
		return shapes.Event{}, fmt.Errorf("#%d is ready for review already", number)
	}
	pr.Draft, pr.UpdatedAt = draft, s.Clock()
	s.Record(pr, kind, user, nil)
	return s.PREvent(r, pr, action, user, nil), nil
}
