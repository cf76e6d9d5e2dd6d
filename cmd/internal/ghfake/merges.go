package ghfake

// Standing returns what stands on pull request number of repo now (its reviews, labels, and
// the checks on its head), as a merge would record it; it panics when there is none.
func (s *Server) Standing(repoName string, number int) MergeRecord {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	return s.StandingOf(r, s.MustPR(r, number))
}

// Merges returns what stood at each merge of a pull request, in order.
func (s *Server) Merges() []MergeRecord {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]MergeRecord(nil), s.MergeLog...)
}
