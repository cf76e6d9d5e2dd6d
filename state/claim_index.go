package state

import (
	"time"

	"github.com/org/pipeline-action/engine/model"
)

// The end of a claim is a deadline the sweep keeps. An invocation that finds another's
// claim in flight and no state comment leaves the posting to the claimer; but a claimer
// whose commit was made and whose answer was lost (a 5xx, a GraphQL error after the write)
// never posts, and once the pull request is merged no event may come again. So the save
// that leaves the comment to a claimer lists the claim's end in the index, as an entry
// with no run (CommentClaim): the sweep visits the subject after it, claims anew and posts
// the comment. A save that knows the comment, or claims anew, lists it no more. A claimer's
// own commit lists nothing: it posts next, and most do.

// CommentClaim reports whether e lists the end of a claim to post the state comment of its
// subject rather than a run.
func (e IndexEntry) CommentClaim() bool { return e.Run == "" }

// withClaimDue returns idx with the entry of the claim to post the state comment of file
// (subject owner/repo#N) due at due; with due zero, without one.
func (idx *Index) withClaimDue(file, subject string, due time.Time) *Index {
	out := &Index{Version: indexVersion}
	for _, e := range idx.Runs {
		if e.File != file || !e.CommentClaim() {
			out.Runs = append(out.Runs, e)
		}
	}
	if !due.IsZero() {
		out.Runs = append(out.Runs, IndexEntry{Subject: subject, File: file, Status: model.RunWaiting, Updated: due.UTC(), NextDeadline: due.UTC()})
	}
	return out
}

// claimDueListed is the end of the claim the shard text read (v.Shard) lists for file;
// zero for none, or a shard that does not decode.
func claimDueListed(shard, file string) time.Time {
	if shard == "" {
		return time.Time{}
	}
	idx, err := DecodeIndex(shard)
	if err != nil {
		return time.Time{}
	}
	for _, e := range idx.Runs {
		if e.File == file && e.CommentClaim() {
			return e.NextDeadline
		}
	}
	return time.Time{}
}

// claimDueHeadline is the headline of a commit that changes only the index, listing the end
// of a claim (due) or no longer listing it (due zero).
func claimDueHeadline(file string, due time.Time) string {
	if due.IsZero() {
		return subjectName(file) + ": the state comment's claim is no longer a deadline"
	}
	return subjectName(file) + ": the state comment is left to the claim in flight, until " + due.UTC().Format(time.RFC3339)
}
