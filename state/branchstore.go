package state

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine"
)

// BranchFile is a file read at the state branch's head, with the commit that last
// changed it (Commit.history(first: 1, path: ...)): who made that commit, and whether
// GitHub signed it.
type BranchFile struct {
	Path      string
	Text      string
	Truncated bool // GitHub gave only part of the text (or none: a binary)
	Commit    string
	Date      time.Time // when that commit was made
	// Author is the login of the commit's author, spelt as ghapi.Login spells it, or ""
	// when GitHub ties the commit to no account.
	Author string
	// Signed says GitHub made the commit's signature itself and it is valid, as it is for
	// every commit of createCommitOnBranch (and of GitHub's web editor: Author tells them
	// apart).
	Signed bool
}

// BranchRead is what the facts query read of the state branch, at one head commit.
type BranchRead struct {
	Name   string
	Exists bool
	Head   string      // the head commit; "" when the branch does not exist
	File   *BranchFile // the subject's file; nil when absent
	Index  *BranchFile // index.json; nil when absent
	// Outputs are the files of the subject's outputs directory (OutputsDir): path → text,
	// "" for a file GitHub gave no whole text of. Their digests in the state vouch for them.
	Outputs map[string]string
	// What creating the branch takes: the repository's node id and the default
	// branch's head, which the state branch starts from.
	RepoID      string
	DefaultHead string
}

// FileChange is a file a commit on the state branch writes, or deletes.
type FileChange struct {
	Path   string
	Text   string
	Delete bool
}

// BranchWriter is what the branch store needs from GitHub; the adapter satisfies it.
type BranchWriter interface {
	// CreateBranch creates branch name at commit oid (createRef). A branch that exists
	// already is ErrConflict; a refusal by a ruleset is ErrForbidden.
	CreateBranch(ctx context.Context, repoID, name, oid string) error
	// CommitFiles commits files on branch if its head is still expectedHead
	// (createCommitOnBranch) and returns the new commit. A moved head (or a branch that
	// is gone) is ErrConflict; a refusal by a ruleset is ErrForbidden.
	CommitFiles(ctx context.Context, branch, expectedHead string, files []FileChange, headline, body string) (string, error)
}

// TrustFile says why a state-branch file cannot be trusted, "" when it can: the commit
// that last changed it must have been made by the action's identity (viewer) and
// signed by GitHub, as createCommitOnBranch commits are. Anyone with write access can
// push to a branch; a push is not signed by GitHub, and GitHub's web editor signs as
// the person who edits.
func TrustFile(f *BranchFile, viewer string) string {
	switch {
	case !engine.SameIdentity(f.Author, viewer):
		return fmt.Sprintf("%s was last changed by %s (commit %.7s), not by this action", f.Path, orUnknown(f.Author), f.Commit)
	case !f.Signed:
		return fmt.Sprintf("%s was last changed by a commit that GitHub did not sign (commit %.7s): not written through GitHub's API by this action", f.Path, f.Commit)
	}
	return ""
}

var _ Store = (*BranchStore)(nil)

// BranchStore keeps a subject's state in its file on the state branch, and index.json
// up to date with it, with compare-and-swap on the branch's head: a commit made on
// another head than the one read fails with ErrConflict.
type BranchStore struct {
	w       BranchWriter
	read    BranchRead
	file    string // pr-7.json
	subject string // owner/repo#7
	viewer  string
	logf    func(format string, args ...any)
	newly   []engine.IgnoredComment
	keys    *Keys // the state keys (SetKeys); nil: none
}

// NewBranchStore returns a store over what the facts query read of the branch; Load
// makes no API call. file is the subject's file (SubjectFile), subject its
// owner/repo#N, viewer the action's identity.
func NewBranchStore(w BranchWriter, read BranchRead, file, subject, viewer string, logf func(format string, args ...any)) *BranchStore {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &BranchStore{w: w, read: read, file: file, subject: subject, viewer: viewer, logf: logf}
}

// File is the subject's file on the branch.
func (s *BranchStore) File() string { return s.file }

// state returns the subject's state on the branch: nil when there is none, or when the
// file is not trusted (then it is in s.newly). A trusted file that does not decode is
// an error: the caller must stop rather than start over. So is, without a state key, a
// file the action wrote signed with a key (a *SignedStateError).
func (s *BranchStore) state() (*engine.State, error) {
	s.newly = nil
	f := s.read.File
	if f == nil {
		return nil, nil
	}
	if why := TrustFile(f, s.viewer); why != "" {
		s.newly = []engine.IgnoredComment{{Commit: f.Commit, Why: why}}
		return nil, nil
	}
	if f.Truncated {
		return nil, fmt.Errorf("reading %s on %s: too large for GitHub to give its text", f.Path, s.read.Name)
	}
	if _, sum := splitFileMAC(f.Text); sum != "" && !s.keys.Set() {
		return nil, &SignedStateError{Subject: s.subject, File: f.Path, Commit: f.Commit}
	}
	if why := VerifyFile(f.Text, s.file, s.subject, s.keys); why != "" {
		s.newly = []engine.IgnoredComment{{Commit: f.Commit, Why: why}}
		return nil, nil
	}
	st, err := DecodeFile(f.Text, s.subject)
	if err != nil {
		return nil, fmt.Errorf("reading %s on %s at %.7s: %w", f.Path, s.read.Name, f.Commit, err)
	}
	return st, nil
}

// version is what was read of the branch.
func (s *BranchStore) version() Version {
	v := Version{Head: s.read.Head}
	if f := s.read.File; f != nil {
		v.File, v.FileCommit = f.Text, f.Commit
	}
	if f := s.read.Index; f != nil {
		v.Index = f.Text
	}
	v.Outputs = s.read.Outputs
	return v
}

// Load returns the subject's state on the branch, or an empty state when there is
// none or it is not trusted (it is then added to State.Ignored, and NewlyIgnored).
func (s *BranchStore) Load(_ context.Context, _ int) (*engine.State, Version, error) {
	st, err := s.state()
	if err != nil {
		return nil, Version{}, err
	}
	if st == nil {
		st = &engine.State{Version: stateVersion}
	}
	s.newly = append(s.newly, resolve(st, s.read.Outputs)...)
	addIgnored(st, s.newly)
	return st, s.version(), nil
}

// NewlyIgnored returns the file the last Load ignored, if it was not in its state's
// State.Ignored already.
func (s *BranchStore) NewlyIgnored() []engine.IgnoredComment { return s.newly }

// index is the index read, when it can be trusted; nil means an empty one. An index that
// someone else changed is rebuilt: it lists the runs of the subjects written since.
//
// keep says to leave index.json as it is: GitHub gave only part of its text (it lists
// more open runs than GitHub serves in a query), and rewriting it from that would drop
// the rest. The subjects' files stay right; only the index goes stale, which is logged.
func (s *BranchStore) index() (idx *Index, keep bool, err error) {
	f := s.read.Index
	if f == nil {
		return nil, false, nil
	}
	if why := TrustFile(f, s.viewer); why != "" {
		s.logf("the index of open runs is not trusted (%s); it is written anew, and lists each subject again once its state is written", why)
		return nil, false, nil
	}
	if f.Truncated {
		s.logf("%s on %s is too large for GitHub to give its text; it is left as it is and no longer lists every open run", f.Path, s.read.Name)
		return nil, true, nil
	}
	if idx, err = DecodeIndex(f.Text); err != nil {
		return nil, false, fmt.Errorf("reading %s on %s at %.7s: %w (deleting the file makes the next events write it anew)", f.Path, s.read.Name, f.Commit, err)
	}
	return idx, false, nil
}

// Save writes c's state (compacted) to the subject's file, index.json and the archive
// of the runs that finished, in one commit on the head v read; nothing when the files
// would not change.
func (s *BranchStore) Save(ctx context.Context, _ int, c Change, v Version) (Version, error) {
	live, archived := Compact(c.State)
	return s.write(ctx, c, live, archived, v)
}

func (s *BranchStore) write(ctx context.Context, c Change, live *engine.State, archived []*engine.Run, v Version) (Version, error) {
	kept, outputs, err := externalize(live, s.file)
	if err != nil {
		return v, err
	}
	text, err := EncodeFile(kept)
	if err != nil {
		return v, err
	}
	if text, err = SignFile(text, s.file, s.subject, s.keys); err != nil {
		return v, err
	}
	base, keep, err := s.index()
	if err != nil {
		return v, err
	}
	idx := v.Index
	if !keep {
		if idx, err = EncodeIndex(base.WithSubject(s.file, live)); err != nil {
			return v, err
		}
		if len(idx) > IndexWarning { // outputs.go
			s.logf("%s on %s is %d bytes, half-way to the %d bytes GitHub's GraphQL gives of a file: an index cut there "+
				"is no longer read and the sweep stops; finish or cancel open runs (pipeline-action status lists them)",
				IndexFile, s.read.Name, len(idx), GitHubBlobText)
		}
	}
	var files []FileChange
	if text != v.File {
		files = append(files, FileChange{Path: s.file, Text: text})
	}
	if idx != v.Index {
		files = append(files, FileChange{Path: IndexFile, Text: idx})
	}
	for _, r := range archived {
		a, err := EncodeRun(r)
		if err != nil {
			return v, err
		}
		files = append(files, FileChange{Path: ArchiveFile(s.file, r.ID), Text: a})
	}
	files = append(files, outputChanges(live, outputs, v.Outputs)...)
	if len(files) == 0 {
		return v, nil // nothing changed, nothing written
	}
	head := v.Head
	if head == "" {
		if s.read.DefaultHead == "" || s.read.RepoID == "" {
			return v, fmt.Errorf("creating the state branch %s: the default branch's head is unknown", s.read.Name)
		}
		if err := s.w.CreateBranch(ctx, s.read.RepoID, s.read.Name, s.read.DefaultHead); err != nil {
			return v, fmt.Errorf("creating the state branch %s: %w", s.read.Name, err)
		}
		s.logf("created the state branch %s", s.read.Name)
		head = s.read.DefaultHead
	}
	headline, body := Message(s.file, c.Old, live, c.Event, archived)
	commit, err := s.w.CommitFiles(ctx, s.read.Name, head, files, headline, body)
	if err != nil {
		return v, fmt.Errorf("writing %s on %s: %w", s.file, s.read.Name, err)
	}
	present := v.Outputs
	v.Head, v.File, v.Index, v.FileCommit = commit, text, idx, commit
	v.Outputs = outputs
	for _, p := range unresolvedFiles(live) {
		if t, ok := present[p]; ok {
			v.Outputs[p] = t
		}
	}
	return v, nil
}

// Dual keeps a subject's state on the state branch, the source of truth, and its
// status in the state comment, the view and the spare copy: the comment's marker holds
// the state too, and the branch commit it matches.
//
// Load goes on from the branch's file when it is trusted and not older than the
// comment's state; else from the comment when that is trusted (the branch was lost,
// reset, written by someone else, or never written: rebuilt from the comment); else
// from nothing (what the facts show). Save writes the branch first — a conflict stops
// there, before the comment is touched — then the comment. When the branch refuses the
// action (ErrForbidden), the comment is the only store: the status says so.
type Dual struct {
	Branch   *BranchStore
	Comments *CommentStore
	logf     func(format string, args ...any)

	forbidden   bool
	commentOnly bool // the state loaded is the comment's, matching no commit of the branch
	newly       []engine.IgnoredComment
	created     bool   // the loaded branch had no file for the subject
	createdFile bool   // a Save created it
	body        string // the status last rendered by Save
}

var _ Store = (*Dual)(nil)

// NewDual returns a store over both; logf receives what happened to them (a rebuilt
// file, a branch the action may not write).
func NewDual(branch *BranchStore, comments *CommentStore, logf func(format string, args ...any)) *Dual {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Dual{Branch: branch, Comments: comments, logf: logf}
}

// Load returns the state to go on from; see Dual.
func (d *Dual) Load(ctx context.Context, number int) (*engine.State, Version, error) {
	cst, cv, err := d.Comments.Load(ctx, number)
	var signed *SignedStateError
	if err != nil && !errors.As(err, &signed) {
		return nil, Version{}, fmt.Errorf("%w; the state comment was left as it is", err)
	}
	bst, err := d.Branch.state()
	var signedFile *SignedStateError
	if err != nil && !errors.As(err, &signedFile) {
		return nil, Version{}, err
	}
	if signed = signed.merge(signedFile); signed != nil {
		signed.Subject = d.Branch.subject
		return nil, Version{}, signed
	}
	v := d.Branch.version()
	v.CommentID, v.Body, v.Commit = cv.CommentID, cv.Body, cv.Commit
	d.created = d.Branch.read.File == nil
	d.commentOnly = d.created && cv.CommentID != 0 && cv.Commit == ""
	file := d.Branch.file
	st := bst
	switch {
	case bst != nil && (cv.CommentID == 0 || bst.Seq >= cst.Seq):
	case cv.CommentID != 0 && bst != nil:
		st = cst
		d.logf("%s on %s holds an older state (seq %d) than the state comment (seq %d): the branch was reset or not written; going on from the comment", file, d.Branch.read.Name, bst.Seq, cst.Seq)
	case cv.CommentID != 0 && d.Branch.read.File == nil && cv.Commit != "":
		st = cst
		d.logf("%s is not on %s any more (the branch was deleted or reset); rebuilt from the state comment, which matched commit %.7s", file, d.Branch.read.Name, cv.Commit)
	case cv.CommentID != 0:
		st = cst
	default:
		st = &engine.State{Version: stateVersion}
	}
	d.newly = append(append([]engine.IgnoredComment(nil), d.Comments.NewlyIgnored()...), d.Branch.newly...)
	d.newly = append(d.newly, resolve(st, d.Branch.read.Outputs)...)
	d.newly = addIgnored(st, d.newly)
	return st, v, nil
}

// NewlyIgnored returns the comments and files the last Load ignored for the first time,
// for the caller to report (they are in the loaded State.Ignored as well).
func (d *Dual) NewlyIgnored() []engine.IgnoredComment { return d.newly }

// Body returns the state comment the last Save rendered (whether it wrote it or not):
// what the status shows.
func (d *Dual) Body() string { return d.body }

// CreatedFile reports whether a Save created the subject's file on the branch: the
// invocation that did posts the state comment (see Change.Raced).
func (d *Dual) CreatedFile() bool { return d.createdFile }

// Forbidden reports whether the last Save found the branch refusing the action.
func (d *Dual) Forbidden() bool { return d.forbidden }

// Budget says whether st, saved by d, keeps to the state's budget (see Budget). Its
// outputs count in the comment when the branch refused the action, or when the state
// loaded was kept by the comment alone (the branch refused it then): a branch that has
// just become writable is assumed not to be.
func (d *Dual) Budget(st *engine.State) error {
	return Budget(st, d.Branch.file, d.forbidden || d.commentOnly)
}

// Save writes the branch, then the comment; see Dual. A conflict on the branch is
// ErrConflict, and nothing was written.
func (d *Dual) Save(ctx context.Context, number int, c Change, v Version) (Version, error) {
	live, archived := Compact(c.State)
	out := v
	commit := v.FileCommit
	wroteFile := false
	if !d.forbidden {
		nv, err := d.Branch.write(ctx, c, live, archived, v)
		switch {
		case err == nil:
			wroteFile = nv.FileCommit != v.FileCommit
			out, commit = nv, nv.FileCommit
			d.createdFile = d.createdFile || wroteFile && v.File == "" && d.created
		case errors.Is(err, ErrForbidden):
			d.forbidden = true
			d.logf("the state branch %s may not be written (%s): the state comment is the only store, and serialising events rests on the workflow's concurrency group",
				d.Branch.read.Name, strings.Join(strings.Fields(err.Error()), " "))
		default:
			return v, err
		}
	}
	if d.forbidden {
		commit = ""
	}
	var notes []string
	kept := live // where the branch may not be written, the outputs stay in the comment
	if d.forbidden {
		notes = append(notes, forbiddenNote(d.Branch.read.Name))
	} else {
		var err error
		if kept, _, err = externalize(live, d.Branch.file); err != nil {
			return out, err
		}
	}
	body, err := Body(c.Config, kept, notes...)
	if err != nil {
		return out, err
	}
	d.body = body
	if c.Intent && !d.forbidden {
		return out, nil // the save after the effects writes the comment
	}
	if v.CommentID == 0 && c.Raced && !d.forbidden && !(wroteFile && d.created) {
		// Another invocation created the subject's file while this one ran; it posts the
		// state comment (two would be posted otherwise), and the next event edits it.
		return out, nil
	}
	if body, err = WithCommit(body, commit); err != nil {
		return out, err
	}
	cv, err := d.Comments.Write(ctx, number, body, v)
	if err != nil {
		return out, fmt.Errorf("writing the state comment: %w", err)
	}
	out.CommentID, out.Body, out.Commit = cv.CommentID, cv.Body, cv.Commit
	return out, nil
}

// forbiddenNote is the status's word on a state branch the action may not write.
func forbiddenNote(branch string) string {
	return fmt.Sprintf("\n⚠️ **State branch refused.** The state branch %s may not be created or written by this action (a ruleset or branch protection refuses it), so this comment is the only place its state is kept, and events for this pull request must not run at the same time (the workflow's concurrency group serialises them).\n", code(branch))
}
