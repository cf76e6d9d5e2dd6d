package sim

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The steps that change one thing of the world and send one event.

func (s *simulation) applyOpenIssue(v *openIssue) ([]ghfake.Event, string, bool, error) {
	ev := s.fake.OpenIssue(s.sc.Repo, ghfake.IssueOptions{Number: v.Number, Author: v.Author, Title: v.Title, Body: v.Body, Labels: v.Labels})
	return []ghfake.Event{ev}, fmt.Sprintf("open_issue #%d by %s", v.Number, v.Author), deliverOn(v.Deliver), nil
}

func (s *simulation) applyReview(v *reviewStep) ([]ghfake.Event, string, bool, error) {
	repo, here, err := s.stepRepo(v.Repo)
	if err != nil {
		return nil, "", false, err
	}
	review, label := s.fake.Review, fmt.Sprintf("review #%d by %s: %s", v.PR, v.User, cmp.Or(v.State, "approved"))
	if v.Conversation {
		review, label = s.fake.ReviewWithConversation, label+", opening a conversation"
	}
	ev := review(repo, v.PR, v.User, cmp.Or(v.State, "approved"), v.Body)
	return []ghfake.Event{ev}, label + elsewhere(repo, here), deliverOn(v.Deliver) && here, nil
}

func (s *simulation) applyEditPR(v *editPRStep) ([]ghfake.Event, string, bool, error) {
	if v.Base == "" {
		return nil, "", false, errors.New("edit_pr needs a base")
	}
	ev := s.fake.ChangeBase(s.sc.Repo, v.PR, v.Base, v.User)
	return []ghfake.Event{ev}, fmt.Sprintf("edit_pr #%d: base changed to %s", v.PR, v.Base), deliverOn(v.Deliver), nil
}

func (s *simulation) applyStatus(v *statusStep) ([]ghfake.Event, string, bool, error) {
	ev := s.fake.SetStatusAs(s.sc.Repo, v.PR, v.Context, v.State, v.User)
	label := fmt.Sprintf("status %q on #%d: %s", v.Context, v.PR, v.State)
	if v.User != "" {
		label += " by " + v.User
	}
	return []ghfake.Event{ev}, label, deliverOn(v.Deliver) && v.User != ghfake.BotLogin, nil
}

func (s *simulation) applyEditComment(v *editCommentStep) ([]ghfake.Event, string, bool, error) {
	ev, label, err := s.editComment(v)
	if err != nil {
		return nil, "", false, err
	}
	return []ghfake.Event{ev}, label, deliverOn(v.Deliver), nil
}

// applyRedeliver is `redeliver: N`: the events of step N again, as a re-run sends them.
func (s *simulation) applyRedeliver(n, v int) ([]ghfake.Event, string, bool, error) {
	if v >= n || len(s.sent[v]) == 0 {
		return nil, "", false, fmt.Errorf("redeliver %d: step %d delivered no event before this step", v, v)
	}
	return nil, fmt.Sprintf("redeliver the event of step %d (a re-run)", v), true, nil
}
