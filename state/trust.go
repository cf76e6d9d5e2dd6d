package state

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// Comment is a PR/issue comment as the facts query returns it.
type Comment struct {
	ID              int64
	Author          string
	ViewerDidAuthor bool // written by the action's own identity
	// Edited says GitHub recorded an edit (lastEditedAt or includesCreatedEdit), and
	// Editor is the login of the last editor ("" when GitHub gives none: a deleted user).
	// Author and Editor are spelt as REST spells them (ghapi.Login): an app is
	// "<slug>[bot]", so the Bot github-actions and a User named github-actions differ.
	Edited bool
	Editor string
	Body   string
}

// EditedByOther reports whether someone other than the comment's author edited it
// last (or an editor GitHub no longer names).
func (c Comment) EditedByOther() bool {
	return model.EditedByOther(c.Edited, c.Author, c.Editor)
}

// Check says whether the state in comment c can be trusted, and returns it if so.
// why is empty for a trusted state and says, in words for the status, why c is not
// trusted otherwise. err is for a comment that passes every check but whose state
// cannot be read (a newer action wrote it, or a bug): the caller must stop rather than
// start over.
//
// A state comment is trusted only when all of these hold:
//   - the action's identity wrote it (viewerDidAuthor);
//   - nobody else edited it: GitHub lets anyone with write access edit any comment,
//     and keeps the author, so the last editor must be the author too;
//   - it was edited at least once: the action posts a state comment and at once edits
//     it to record the comment's id, so a comment never edited was not written that way
//     (another workflow posting as the same identity);
//   - its marker names this comment's id (a marker copied from another comment names
//     that one), nothing follows the marker, and the marker's binding matches the text
//     before it and the payload (a changed status, a spliced state).
//
// Nothing here is secret: a workflow of the same repository that uses the same token
// can still write a comment passing these checks by posting and then editing it. The
// checks stop edits by people and comments that merely carry a marker; a merge never
// rests on the stored state alone. A state key (CheckKeyed) closes that gap: such a
// workflow has the identity but not the key.
func Check(c Comment) (st *model.State, why string, err error) { return CheckKeyed(c, nil) }

// CheckKeyed is Check under the state keys k: with a key set, the marker must also be
// signed with it (v4, its HMAC verifying with the current or a previous key). Without a
// key it is Check, except that a signed marker is not trusted (whyNoKey): an action with a
// key wrote it, and an invocation without the key must not go on from it (nor overwrite
// it); CommentStore.Load stops on it.
func CheckKeyed(c Comment, k *Keys) (st *model.State, why string, err error) {
	switch {
	case !c.ViewerDidAuthor:
		return nil, fmt.Sprintf("not written by this action (written by %s)", orUnknown(c.Author)), nil
	case c.EditedByOther():
		return nil, fmt.Sprintf("edited by %s, not by this action", orUnknown(c.Editor)), nil
	case !c.Edited:
		return nil, "not bound to its comment: never edited after it was posted, as this action's state comments are", nil
	}
	m, found, err := parseMarker(c.Body)
	switch {
	case !found:
		return nil, "it holds no state marker", nil
	case err != nil && m.version == "v1":
		return nil, "written by an older version of this action, whose marker is not bound to its comment", nil
	case err != nil && (m.version == "" || !strings.HasPrefix(m.version, "v")):
		return nil, "its state marker is malformed", nil
	case err != nil && m.version != markerV4 && m.version != markerVersion && m.version != markerV2:
		// Another version of the action wrote it, and its author checks passed: stop.
		return nil, "", err
	case err != nil:
		return nil, "its state marker is malformed", nil
	case strings.TrimSpace(c.Body[m.end:]) != "":
		return nil, "text follows its state marker", nil
	case m.id == 0:
		return nil, "its state marker is bound to no comment", nil
	case m.id != c.ID:
		return nil, fmt.Sprintf("its state marker belongs to comment %d (copied)", m.id), nil
	case !m.verifies(c.Body[:m.start]):
		return nil, "its text does not match its state marker (changed after this action wrote it)", nil
	}
	if why := checkMarkerKey(m, c.Body[:m.start], k); why != "" {
		return nil, why, nil
	}
	st, err = decodePayload(m.payload)
	if err != nil {
		return nil, "", fmt.Errorf("decoding state marker: %w", err)
	}
	return st, "", nil
}

func orUnknown(login string) string {
	if login == "" {
		return "a deleted or unknown user"
	}
	return login
}
