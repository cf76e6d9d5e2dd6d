package core

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// Refuse replies to c that its command was refused — once per person until the runs
// move: a flood of commands by someone without the authority to give them costs one
// reply, and each further one is only logged. A person refused while the runs stand
// where they did when last told already knows why.
func (e *Eval) Refuse(c model.IssueComment, text string) {
	at := e.runsAt()
	kept := e.St.Refused[:0:0]
	for _, r := range e.St.Refused {
		if !strings.EqualFold(r.Login, c.Author) {
			kept = append(kept, r)
			continue
		}
		if r.Runs == at {
			e.Logf("comment %d by %s refused again; not replied to (the last refusal, with the runs where they stand, said why)", c.ID, c.Author)
			return
		}
	}
	kept = append(kept, model.Refusal{Login: c.Author, Runs: at})
	if len(kept) > model.MaxRefused {
		kept = kept[len(kept)-model.MaxRefused:]
	}
	e.St.Refused = kept
	e.Reply(c, text)
}

// runsAt sums up where the subject's unfinished runs stand: each one's id, stage,
// status and attempt there. It changes when any of them moves.
func (e *Eval) runsAt() string {
	var parts []string
	for _, r := range e.St.Runs {
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
