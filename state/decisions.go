package state

import (
	"encoding/json"

	"github.com/org/pipeline-action/engine"
)

// The state branch stores decisions: where each run stands (a stage entered or left, a
// verdict, an attempt), the ledger (approvals, commands seen, effects applied), intents
// and deadlines. What every evaluation derives again from the facts — a gate's
// checklist (StageRun.Results), the state's Seq — and the comments cursor are not worth
// a commit of their own: when they are all that changed, the branch is left as it is and
// only the comment shows them (when its visible text changed). The comment's marker then
// holds the same decisions as the file, with the fresher derived data, and names the
// file's commit; Load goes on from it.

// decisions is the JSON of what st decided: st without the data derived again on every
// evaluation. Two states with the same decisions differ in nothing a later event acts on.
func decisions(st *engine.State) string {
	if st == nil {
		return ""
	}
	d := *st
	d.Seq, d.CommentsRead, d.StateComment = 0, 0, ""
	d.Runs = make([]*engine.Run, len(st.Runs))
	for i, r := range st.Runs {
		if r == nil {
			continue
		}
		rc := *r
		rc.Stages = make(map[string]*engine.StageRun, len(r.Stages))
		for id, sr := range r.Stages {
			if sr == nil {
				rc.Stages[id] = nil
				continue
			}
			sc := *sr
			sc.Results = nil
			rc.Stages[id] = &sc
		}
		d.Runs[i] = &rc
	}
	js, err := json.Marshal(&d)
	if err != nil {
		return ""
	}
	return string(js)
}

// sameDecisions reports whether kept, a state about to be written as the subject's file,
// decides what the file read (text, "" for none) decides, and returns the file's state.
// A file that does not decode decides nothing this store knows of: it is rewritten.
func sameDecisions(text, subject string, kept *engine.State) (*engine.State, bool) {
	if text == "" {
		return nil, false
	}
	st, _, err := decodeFile(text, subject)
	if err != nil {
		return nil, false
	}
	a := decisions(kept)
	return st, a != "" && a == decisions(st)
}

// derivedOnly says whether the save of c (live, kept as the file would hold it) changes
// only derived data of the file read as v: then the branch is not written. It never holds
// while the branch is refused, for a fresh claim (the comment's posting is serialised
// by its commit), for runs to archive, when the end of a claim the index lists changes,
// or when c asks for the state to be kept.
func (d *Dual) derivedOnly(c Change, kept *engine.State, archived []*engine.Run, v Version, fw fileWrite) (fileSeq int, ok bool) {
	if d.forbidden || fw.fresh || c.Keep || len(archived) > 0 || v.File == "" {
		return 0, false
	}
	if !claimDueListed(v.Shard, d.Branch.file).Equal(fw.due) { // the sweep's deadline changes
		return 0, false
	}
	st, same := sameDecisions(v.File, d.Branch.subject, kept)
	if !same || !d.Branch.signedNow(v.File) {
		return 0, false
	}
	return st.Seq, true
}

// signedNow reports whether the file text read is signed as this write would sign it:
// with the current state key (a file signed with a previous one is written anew), or
// with none when no key is set.
func (s *BranchStore) signedNow(text string) bool {
	unsigned, _ := splitFileMAC(text)
	signed, err := SignFile(unsigned, s.file, s.subject, s.keys)
	return err == nil && signed == text
}

// unchanged is derivedOnly for the save of live: it says whether the branch is left as
// it is, and the seq of the file it keeps.
func (d *Dual) unchanged(c Change, live *engine.State, archived []*engine.Run, v Version, fw fileWrite) (int, bool) {
	if d.forbidden {
		return 0, false
	}
	kept, _, err := externalize(live, d.Branch.file)
	if err != nil {
		return 0, false
	}
	return d.derivedOnly(c, kept, archived, v, fw)
}

// sameFile reports whether the trusted state comment read as cv, holding cst, is
// written on top of the trusted file read, holding bst: it names the file's commit, at
// its seq, with its decisions (a save that changed only derived data wrote it).
func (d *Dual) sameFile(cv Version, bst, cst *engine.State) bool {
	f := d.Branch.read.File
	return f != nil && cv.Commit != "" && cv.Commit == f.Commit && cst.Seq == bst.Seq && decisions(cst) == decisions(bst)
}

// shows reports whether the state comment read (target) already shows what body, the
// status of st, would: the same visible text, a marker holding the same decisions and
// signed as this write would sign it (with the current state key, or none). Then it is
// not edited: what differs is derived data the next evaluation derives again, or the
// commit its marker names, which decided nothing new.
func (d *Dual) shows(target Version, body string, st *engine.State) bool {
	if target.CommentID != 0 && IsPlaceholder(target.Body) {
		return d.waits(target.Body, body, st)
	}
	if target.CommentID == 0 || Human(target.Body) != Human(body) {
		return false
	}
	rebound, err := BindKeyed(target.Body, target.CommentID, d.Comments.keys)
	if err != nil || rebound != target.Body {
		return false
	}
	read, found, err := Decode(target.Body)
	return err == nil && found && decisions(read) == decisions(st)
}
