package chatops

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"
)

// replyPrefix begins the key of a reply's effect; the rest names the comment.
const replyPrefix = "chatops/"

// reply posts a one-line answer to command comment c (once: its key names the comment).
func reply(k Kernel, c model.IssueComment, text string) {
	k.Emit(model.Effect{Key: fmt.Sprintf("%s%d", replyPrefix, c.ID), Kind: model.EffectComment,
		Number: k.World().Facts.PR.Number, Body: "@" + c.Author + " " + render.InertMarkers(oneLine(text)), WriteAhead: true})
}

// Settled records the outcome of a reply or a retest's rerun, and reports whether o was one.
func Settled(o model.Outcome, logf func(format string, args ...any)) bool {
	switch {
	case !strings.HasPrefix(o.Key, replyPrefix) && !strings.HasPrefix(o.Key, retestPrefix):
		return false
	case o.Err != "":
		logf("%s was not done: %s", o.Key, o.Err)
	}
	return true
}

// refuse replies to c that its command was refused — once per person until the runs
// move: a flood of commands by someone without the authority to give them costs one
// reply, and each further one is only logged. A person refused while the runs stand
// where they did when last told already knows why.
func refuse(k Kernel, c model.IssueComment, text string) {
	st := k.World().St
	at := runsAt(st.Runs)
	kept := st.Refused[:0:0]
	for _, r := range st.Refused {
		if !strings.EqualFold(r.Login, c.Author) {
			kept = append(kept, r)
			continue
		}
		if r.Runs == at {
			k.Logf("comment %d by %s refused again; not replied to (the last refusal, with the runs where they stand, said why)", c.ID, c.Author)
			return
		}
	}
	kept = append(kept, model.Refusal{Login: c.Author, Runs: at})
	if len(kept) > model.MaxRefused {
		kept = kept[len(kept)-model.MaxRefused:]
	}
	st.Refused = kept
	reply(k, c, text)
}

// runsAt sums up where the unfinished runs stand: each one's id, stage, status and
// attempt there. It changes when any of them moves.
func runsAt(runs []*model.Run) string {
	var parts []string
	for _, r := range runs {
		if r.Status.Final() {
			continue
		}
		attempt := 0
		if sr := r.Stages[r.Stage]; sr != nil {
			attempt = sr.Attempt
		}
		parts = append(parts, r.ID+"\x00"+r.Stage+"\x00"+string(r.Status)+"\x00"+strconv.Itoa(attempt))
	}
	sort.Strings(parts)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x01")))
	return hex.EncodeToString(sum[:8])
}

// firstLine is the start of a comment, for the log.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
