package sim

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// printPosted prints every comment the action's identity posted since the last step other
// than the state comment — replies to commands, reminders, on_enter notices, notifications,
// comment actions, dispatches by comment — once each, so that a story shows all the action
// said. The state comment is printed by printComments.
func (s *simulation) printPosted() {
	if s.quiet {
		return
	}
	if s.posted == nil {
		s.posted = map[int64]bool{}
	}
	for _, n := range s.subjects() {
		var views []ghfake.CommentView
		s.try(func() { views = s.fake.Comments(s.sc.Repo, n) })
		for _, c := range views {
			if c.Author != ghfake.BotLogin || s.posted[c.ID] || state.HasMarker(c.Body) || state.IsPlaceholder(c.Body) {
				continue
			}
			s.posted[c.ID] = true
			fmt.Fprintf(s.out, "   comment by the action on #%d:\n", n)
			for _, l := range strings.Split(strings.TrimSpace(withoutMarkers(c.Body)), "\n") {
				fmt.Fprintf(s.out, "   ┊ %s\n", l)
			}
		}
	}
}

// withoutMarkers drops the lines that are the action's hidden markers (which effect a
// comment is), which a reader of the PR does not see either.
func withoutMarkers(body string) string {
	var keep []string
	for _, l := range strings.Split(body, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "<!-- pipeline-action:") && strings.HasSuffix(t, "-->") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}
