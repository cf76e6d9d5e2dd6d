package act

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"

// Standing returns what stands on pull request number of repo now (its reviews, labels, and
// the checks on its head), as a merge would record it; it panics when there is none.
func (s *Views) Standing(repoName string, number int) world.MergeRecord {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	return s.StandingOf(r, s.MustPR(r, number))
}

// Merges returns what stood at each merge of a pull request, in order.
func (s *Views) Merges() []world.MergeRecord {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]world.MergeRecord(nil), s.MergeLog...)
}
