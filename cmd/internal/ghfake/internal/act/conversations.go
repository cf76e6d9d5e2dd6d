package act

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"

// Review conversations, which branch protection may require to be resolved before a merge
// (required_conversation_resolution). The fake keeps only whether each is resolved: the
// action reads none of them.

// ReviewWithConversation submits a review as Review does, one that opens a review
// conversation (an inline comment's thread) nobody has resolved yet.
func (s *PRs) ReviewWithConversation(repoName string, number int, user, state, body string) shapes.Event {
	ev := s.Review(repoName, number, user, state, body)
	s.Mu.Lock()
	defer s.Mu.Unlock()
	pr := s.MustPR(s.MustRepo(repoName), number)
	pr.Reviews[len(pr.Reviews)-1].Conversation = true
	return ev
}

// ResolveConversations resolves every open review conversation of the pull request and
// returns how many it resolved.
func (s *PRs) ResolveConversations(repoName string, number int) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	pr := s.MustPR(s.MustRepo(repoName), number)
	n := 0
	for _, rv := range pr.Reviews {
		if rv.Conversation && !rv.Resolved {
			rv.Resolved = true
			n++
		}
	}
	return n
}
