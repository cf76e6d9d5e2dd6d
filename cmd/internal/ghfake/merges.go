package ghfake

import "time"

// MergeRecord is what GitHub knew of a pull request when it merged it: the head it merged,
// when, and the reviews, check runs and commit statuses that stood then. Tests judge a merge
// by it (was it approved, was CI green) without replaying how the merge came about.
type MergeRecord struct {
	Repo    string
	Number  int
	Author  string
	HeadSHA string
	At      time.Time
	// Base is the branch it merged into; Labels are its labels then.
	Base   string
	Labels []string
	// Reviews are every review of the pull request then, oldest first.
	Reviews []ReviewRecord
	// Checks are the check runs on the head then; Statuses its commit statuses, oldest first.
	Checks   []CheckRecord
	Statuses []StatusRecord
}

// ReviewRecord is a review as it stood at a merge, with its author's permission then.
type ReviewRecord struct {
	User, Permission, State, CommitID string
}

// CheckRecord is a check run on a merged head.
type CheckRecord struct {
	Name, Status, Conclusion string
}

// StatusRecord is a commit status on a merged head.
type StatusRecord struct {
	Context, State string
}

// recordMerge keeps what stands as pr is merged. The caller holds s.mu.
func (s *Server) recordMerge(r *repo, pr *issue) {
	s.merges = append(s.merges, s.standing(r, pr))
}

// standing is what stands on pr now, as a merge would record it. The caller holds s.mu.
func (s *Server) standing(r *repo, pr *issue) MergeRecord {
	m := MergeRecord{Repo: r.FullName(), Number: pr.Number, Author: pr.Author, HeadSHA: pr.HeadSHA, At: s.Clock(),
		Base: pr.Base, Labels: append([]string(nil), pr.Labels...)}
	for _, rv := range pr.Reviews {
		m.Reviews = append(m.Reviews, ReviewRecord{User: rv.User, Permission: s.PermissionOf(rv.User), State: rv.State, CommitID: rv.CommitID})
	}
	if c := r.Commits[pr.HeadSHA]; c != nil {
		for _, cr := range c.Checks {
			m.Checks = append(m.Checks, CheckRecord{Name: cr.Name, Status: cr.Status, Conclusion: cr.Conclusion})
		}
		for _, st := range c.Statuses {
			m.Statuses = append(m.Statuses, StatusRecord{Context: st.Context, State: st.State})
		}
	}
	return m
}

// Standing returns what stands on pull request number of repo now (its reviews, labels, and
// the checks on its head), as a merge would record it; it panics when there is none.
func (s *Server) Standing(repoName string, number int) MergeRecord {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	return s.standing(r, s.MustPR(r, number))
}

// Merges returns what stood at each merge of a pull request, in order.
func (s *Server) Merges() []MergeRecord {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]MergeRecord(nil), s.merges...)
}
