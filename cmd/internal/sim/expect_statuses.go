package sim

import (
	"fmt"
	"sort"
)

// checkStatuses checks the commit statuses on pull request n's head: `statuses` the latest
// state of each context named (`none`: the head has no status of that context), and
// `status_writes` how many statuses of each context named the head has, so a scenario
// holds the action to writing a status only when it changed.
func (s *simulation) checkStatuses(report func(bool, string, string, string), n int, x subjectExpect) {
	if len(x.Statuses) == 0 && len(x.StatusWrites) == 0 {
		return
	}
	latest, count := s.fake.HeadStatuses(s.sc.Repo, n)
	for _, ctx := range sortedKeys(x.Statuses) {
		want, got := x.Statuses[ctx], "none"
		if st, ok := latest[ctx]; ok {
			got = st.State
			if st.Description != "" {
				got += fmt.Sprintf(" (%q)", st.Description)
			}
		}
		report(got == want || latest[ctx].State == want, fmt.Sprintf("#%d commit status %s on the head", n, ctx), want, got)
	}
	for _, ctx := range sortedKeys(x.StatusWrites) {
		report(count[ctx] == x.StatusWrites[ctx], fmt.Sprintf("#%d statuses %s on the head", n, ctx), fmt.Sprint(x.StatusWrites[ctx]), fmt.Sprint(count[ctx]))
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
