package state

import (
	"errors"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// MaxCommentLen is the most characters GitHub accepts in a comment body. Body
// counts bytes, which is never fewer than GitHub's count.
const MaxCommentLen = 65536

// Body returns the whole state comment: Render, a note on the comments whose state
// was ignored (State.Ignored), then the marker holding st, bound to no comment yet
// (the store binds it to the comment's id with Bind when it writes).
//
// When that is longer than MaxCommentLen, the oldest history entries are left out
// of the rendered part (never out of the state), then the history altogether, then
// everything but a one-line summary per run. It is an error only when the marker
// alone does not fit.
//
// notes are paragraphs shown under the status (after the ignored ones), as they are.
func Body(cfg *lang.Config, st *model.State, notes ...string) (string, error) {
	payload, err := encodePayload(st)
	if err != nil {
		return "", err
	}
	// The marker once bound: the longest id, and the newline between the two parts.
	room := MaxCommentLen - markerRoom(payload)
	if room < 0 {
		return "", fmt.Errorf("state of %s is %d characters encoded; a comment holds at most %d", subject(st), len(payload), MaxCommentLen)
	}
	note := ignoredNote(st) + disownedNote(st) + strings.Join(notes, "")
	rendered := Render(cfg, st) + note
	if len(rendered) > room {
		rendered = trimHistory(cfg, st, room-len(note)) + note
	}
	if len(rendered) > room {
		rendered = summary(st) + note
	}
	if len(rendered) > room {
		rendered = ""
	}
	before := rendered + "\n"
	return before + sealMarker(before, 0, payload), nil
}

// Bind returns body (as Body wrote it) with its marker bound to comment id. It is an
// error when body holds no marker or text after it.
func Bind(body string, id int64) (string, error) { return BindKeyed(body, id, nil) }

// BindKeyed is Bind, signing the marker with the current key of k when one is set.
func BindKeyed(body string, id int64, k *Keys) (string, error) {
	m, found, err := parseMarker(body)
	if err != nil {
		return "", fmt.Errorf("binding state comment %d: %w", id, err)
	}
	if !found {
		return "", fmt.Errorf("binding state comment %d: no state marker", id)
	}
	if strings.TrimSpace(body[m.end:]) != "" {
		return "", fmt.Errorf("binding state comment %d: text after the state marker", id)
	}
	before := body[:m.start]
	return before + sealKeyed(before, id, m.Commit(), m.payload, k), nil
}

// WithCommit returns body (as Body or Bind wrote it) with its marker saying that its
// state matches the state-branch commit commit ("" for none), bound to no comment yet:
// Bind binds it.
func WithCommit(body, commit string) (string, error) {
	if !validCommit(commit) && commit != "" {
		return "", fmt.Errorf("state marker: %q is not a commit id", commit)
	}
	m, found, err := parseMarker(body)
	if err != nil {
		return "", fmt.Errorf("state marker: %w", err)
	}
	if !found {
		return "", errors.New("state marker: none in the body")
	}
	if strings.TrimSpace(body[m.end:]) != "" {
		return "", errors.New("state marker: text after it")
	}
	before := body[:m.start]
	return before + seal(before, 0, commit, m.payload), nil
}

// MarkerCommit returns the state-branch commit the marker of body says its state
// matches; "" when it names none or body holds no readable marker.
func MarkerCommit(body string) string {
	m, found, err := parseMarker(body)
	if !found || err != nil {
		return ""
	}
	return m.Commit()
}

// maxIgnoredShown bounds the ignored comments the status lists; the rest are counted.
const maxIgnoredShown = 5

// ignoredNote tells, under the status, which comments held a state that was not
// trusted. Empty when there are none.
func ignoredNote(st *model.State) string {
	if st == nil || len(st.Ignored) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n⚠️ **State ignored.** pipeline-action keeps its state on its state branch and in this comment; it did not trust or could not find the state in:\n\n")
	for i, ig := range st.Ignored {
		if i == maxIgnoredShown {
			fmt.Fprintf(&b, "- and %d more\n", len(st.Ignored)-maxIgnoredShown)
			break
		}
		if ig.Commit != "" {
			fmt.Fprintf(&b, "- the state file on the state branch was ignored: %s\n", inline(ig.Why))
			continue
		}
		if ig.File != "" {
			fmt.Fprintf(&b, "- %s\n", inline(ig.Why))
			continue
		}
		fmt.Fprintf(&b, "- a state comment (id %d) was ignored: %s\n", ig.ID, inline(ig.Why))
	}
	b.WriteString("\nWhat happens next rests on what can be verified (the config, GitHub's facts and this action's own copy of the state), not on those, which were left as they are.\n")
	return b.String()
}

// disownedNote tells, under the status, which command comments were not acted on because
// someone other than their author edited them. Empty when there are none.
func disownedNote(st *model.State) string {
	if st == nil || len(st.Disowned) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n⚠️ **Edited comments ignored.** A comment edited by someone other than its author is neither a command nor its author's action:\n\n")
	for _, d := range st.Disowned {
		fmt.Fprintf(&b, "- comment %d by %s, edited by %s\n", d.ID, inline(d.Author), inline(d.Editor))
	}
	return b.String()
}

// trimHistory renders with the most history entries per run that fit in room, or
// without history when none fit. The rendered length grows with the limit, so a
// binary search finds it.
func trimHistory(cfg *lang.Config, st *model.State, room int) string {
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
func summary(st *model.State) string {
	var b strings.Builder
	b.WriteString("### pipeline-action\n\n")
	for _, run := range sortedRuns(st) {
		fmt.Fprintf(&b, "- **%s** · %s\n", inline(run.Pipeline), headline(run))
	}
	b.WriteString("\nThe full status is too long for a comment.\n")
	return b.String()
}

func subject(st *model.State) string {
	if st.Subject == "" {
		return "this subject"
	}
	return st.Subject
}
