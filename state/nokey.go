package state

import (
	"fmt"
	"strings"
)

// SignedStateError stops an invocation that has no state key when it finds a state
// signed with one. An action that has the key wrote it; without the key this invocation
// can tell it from neither a forgery nor an older state, so it must not go on from it,
// and it must not start over either: that would perform the runs' effects again (dispatch
// an agent a second time), post a second state comment and overwrite the signed file
// unsigned, which the action with the key then reports as untrusted. So it stops before
// anything is written, and says which input it lacks.
type SignedStateError struct {
	Subject  string  // owner/repo#N
	Comments []int64 // the signed state comments
	File     string  // the signed state file ("" when the file is not signed)
	Commit   string  // the commit of the state branch that last changed File
}

func (e *SignedStateError) Error() string {
	var where []string
	for _, id := range e.Comments {
		where = append(where, fmt.Sprintf("comment %d", id))
	}
	if e.File != "" {
		where = append(where, fmt.Sprintf("%s at commit %.7s", e.File, e.Commit))
	}
	return fmt.Sprintf("the state of %s (%s) is signed with a state key, and this workflow was given none: "+
		"give it the `state_key` input, the same secret as the pipelines workflow's "+
		"(`state_key: ${{ secrets.PIPELINE_STATE_KEY }}`, in a job that names the environment holding it). "+
		"Without the key it can neither go on from that state nor replace it, so it stopped and wrote nothing "+
		"(in a repository that uses no state key, no workflow of its own wrote that state: delete it to start the runs over)",
		e.Subject, strings.Join(where, "; "))
}

// merge adds what o found to e; either may be nil.
func (e *SignedStateError) merge(o *SignedStateError) *SignedStateError {
	switch {
	case e == nil:
		return o
	case o == nil:
		return e
	}
	out := *e
	out.Comments = append(append([]int64(nil), e.Comments...), o.Comments...)
	if out.File == "" {
		out.File, out.Commit = o.File, o.Commit
	}
	if out.Subject == "" {
		out.Subject = o.Subject
	}
	return &out
}
