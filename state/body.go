package state

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// MaxCommentLen is the most characters GitHub accepts in a comment body. Body
// counts bytes, which is never fewer than GitHub's count.
const MaxCommentLen = 65536

// Body returns the whole state comment: Render, then the marker holding st.
//
// When that is longer than MaxCommentLen, the oldest history entries are left out
// of the rendered part (never out of the state), then the history altogether, then
// everything but a one-line summary per run. It is an error only when the marker
// alone does not fit.
func Body(cfg *engine.Config, st *engine.State) (string, error) {
	m, err := Encode(st)
	if err != nil {
		return "", err
	}
	room := MaxCommentLen - len(m) - 1 // the newline between the two parts
	if room < 0 {
		return "", fmt.Errorf("state of %s is %d characters encoded; a comment holds at most %d", subject(st), len(m), MaxCommentLen)
	}
	rendered := Render(cfg, st)
	if len(rendered) > room {
		rendered = trimHistory(cfg, st, room)
	}
	if len(rendered) > room {
		rendered = summary(st)
	}
	if len(rendered) > room {
		rendered = ""
	}
	return rendered + "\n" + m, nil
}

// trimHistory renders with the most history entries per run that fit in room, or
// without history when none fit. The rendered length grows with the limit, so a
// binary search finds it.
func trimHistory(cfg *engine.Config, st *engine.State, room int) string {
	longest := 0
	for _, r := range st.Runs {
		if r != nil && len(r.History) > longest {
			longest = len(r.History)
		}
	}
	lo, hi := 0, longest-1 // the full history is known not to fit
	best := render(cfg, st, 0)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if out := render(cfg, st, mid); len(out) <= room {
			lo, best = mid, out
		} else {
			hi = mid - 1
		}
	}
	return best
}

// summary is the last resort: one line per run.
func summary(st *engine.State) string {
	var b strings.Builder
	b.WriteString("### pipeline-action\n\n")
	for _, run := range sortedRuns(st) {
		fmt.Fprintf(&b, "- **%s** · %s\n", esc(run.Pipeline), headline(run))
	}
	b.WriteString("\nThe full status is too long for a comment.\n")
	return b.String()
}

func subject(st *engine.State) string {
	if st.Subject == "" {
		return "this subject"
	}
	return st.Subject
}
