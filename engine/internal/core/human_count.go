package core

import (
	"fmt"
	"strings"
)

// disowned says that comment c does not count: someone other than its author edited it.
func Disowned(c IssueComment) string {
	return fmt.Sprintf("comment %d by %s was edited by %s, so it is neither a command nor %s's action", c.ID, c.Author, c.EditedBy, c.Author)
}

// LatestReviews returns each reviewer's latest review that states an opinion (APPROVED,
// CHANGES_REQUESTED or DISMISSED), in the order reviewers first appear: the one rule of
// which review counts, for human stages and gates alike. A later COMMENTED review does not
// undo an approval or a request for changes. Logins compare without case, as GitHub's do;
// reviews without an author (deleted users) are skipped.
func LatestReviews(reviews []Review) []Review {
	idx := map[string]int{}
	var out []Review
	for _, r := range reviews {
		switch r.State {
		case ReviewApproved, ReviewChangesRequested, ReviewDismissed:
		default:
			continue
		}
		if r.Author == "" {
			continue
		}
		k := strings.ToLower(r.Author)
		if i, ok := idx[k]; ok {
			out[i] = r
			continue
		}
		idx[k] = len(out)
		out = append(out, r)
	}
	return out
}
