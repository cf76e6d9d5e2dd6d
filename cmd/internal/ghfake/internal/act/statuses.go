package act

// StatusView is a commit status as tests see it.
type StatusView struct {
	Context, State, Description, TargetURL string
}

// HeadStatuses returns the latest commit status of each context on the pull request's
// head, by context, and how many statuses each context has there.
func (s *Views) HeadStatuses(repoName string, number int) (latest map[string]StatusView, count map[string]int) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	latest, count = map[string]StatusView{}, map[string]int{}
	if c := r.Commits[pr.HeadSHA]; c != nil {
		for _, st := range c.Statuses {
			latest[st.Context] = StatusView{Context: st.Context, State: st.State, Description: deref(st.Description), TargetURL: deref(st.TargetURL)}
			count[st.Context]++
		}
	}
	return latest, count
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
