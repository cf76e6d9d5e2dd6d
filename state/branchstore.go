package state

import (
	"context"
	"fmt"
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
	// Index is IndexFile, of an older action; nil when absent. The facts query reads it
	// without the commit that last changed it (OpenRuns reads that).
	Index *BranchFile
	// Shard is the subject's shard of the index (ShardFile); nil when absent.
	Shard *BranchFile
	// Definitions is DefinitionsFile, with the commit that last changed it; nil when absent.
	Definitions *BranchFile
	// Shards are the shards present, when the whole index was read (OpenRuns).
	Shards []*BranchFile
	// Sweeps is SweepLogFile, when the whole index was read and it is present.
	Sweeps *BranchFile
	// Retry is RetryFile, when the whole index was read and it is present.
	Retry *BranchFile
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
	// OpenRuns reads the whole index at branch's head: IndexFile and every shard, each
	// with the commit that last changed it. A save reads it only to move IndexFile's
	// entries into the shards.
	OpenRuns(ctx context.Context, branch string) (BranchRead, error)
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

// BranchStore keeps a subject's state in its file on the state branch, and its shard of
// the index up to date with it, with compare-and-swap on the branch's head: a commit made on
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
	// claim is the claim to post the state comment that the subject's file
	// holds, as read or last written; nil for none.
	claim *Claim
	// audit is the audit's tail the subject's file holds, as read or last written, and
	// marks the histories of its runs then; pending is the tail a write puts in the file.
	audit, pending *AuditTail
	marks          map[string]historyMark
	// also are files the next write puts in its commit besides the subject's (AlsoWrite).
	also []FileChange
}

// AlsoWrite has the next write of the subject's files commit files too, in the same
// commit: a repository-wide record that is not worth a commit of its own.
func (s *BranchStore) AlsoWrite(files ...FileChange) { s.also = append(s.also, files...) }

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
	whole, err := decodeWhole(f.Text, s.subject)
	if err != nil {
		return nil, fmt.Errorf("reading %s on %s at %.7s: %w", f.Path, s.read.Name, f.Commit, err)
	}
	s.claim, s.audit, s.marks = whole.Claim, whole.Audit, historyMarks(whole.State)
	return whole.State, nil
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
	if f := s.read.Shard; f != nil {
		v.Shard = f.Text
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

// Save writes c's state (compacted) to the subject's file, its shard of the index and
// the archive of the runs that finished, in one commit on the head v read; nothing when the files
// would not change.
func (s *BranchStore) Save(ctx context.Context, _ int, c Change, v Version) (Version, error) {
	live, archived := Compact(c.State)
	return s.write(ctx, c, live, archived, v, fileWrite{claim: s.claim})
}

// fileWrite is what a write puts in the subject's file besides its state.
type fileWrite struct {
	claim *Claim
	// drop says to write no claim when the file is written anyway: the state comment
	// is known, and the claim is not worth a commit of its own.
	drop bool
	// headline replaces the commit message Message makes; "" keeps it.
	headline string
	// fresh says claim is this save's own (Dual.fileWrite).
	fresh bool
	// due is the end of a claim read that this save leaves to its claimer: the index
	// lists it as a deadline. Zero for none.
	due time.Time
}

// fileText is the subject's file holding kept and claim, signed.
func (s *BranchStore) fileText(kept *engine.State, claim *Claim) (string, error) {
	text, err := encodeFile(kept, claim, s.pending)
	if err != nil {
		return "", err
	}
	return SignFile(text, s.file, s.subject, s.keys)
}

// claimedText is the subject's file holding kept as fw says, over v: without the claim
// when fw drops it and the file changes anyway; fw's headline says so when a fresh claim
// is all that changes.
func (s *BranchStore) claimedText(kept *engine.State, v Version, fw fileWrite) (string, fileWrite, error) {
	text, err := s.fileText(kept, fw.claim)
	if err != nil {
		return "", fw, err
	}
	if fw.drop && fw.claim != nil && text != v.File {
		fw.claim = nil
		text, err = s.fileText(kept, nil)
		return text, fw, err
	}
	if fw.fresh && fw.headline == "" {
		if unclaimed, err := s.fileText(kept, s.claim); err == nil && unclaimed == v.File {
			fw.headline = subjectName(s.file) + ": claim to post the state comment"
		}
	}
	return text, fw, nil
}

func (s *BranchStore) write(ctx context.Context, c Change, live *engine.State, archived []*engine.Run, v Version, fw fileWrite) (Version, error) {
	kept, outputs, err := externalize(live, s.file)
	if err != nil {
		return v, err
	}
	audit, err := s.auditWrite(c, archived) // the audit's parts and the archives
	if err != nil {
		return v, err
	}
	text, fw, err := s.claimedText(kept, v, fw)
	if err != nil {
		return v, err
	}
	index, err := s.indexChanges(ctx, live, v, fw.due)
	if err != nil {
		return v, err
	}
	var files []FileChange
	if text != v.File {
		files = append(files, FileChange{Path: s.file, Text: text})
	} else if fw.headline == "" && len(index.files) > 0 {
		fw.headline = claimDueHeadline(s.file, fw.due) // the index alone changes
	}
	files = append(files, index.files...)
	files = append(files, outputChanges(live, outputs, v.Outputs)...)
	files = append(files, audit...)
	if len(files) > 0 {
		files = append(files, s.also...) // riding along: no commit of its own
	}
	if len(files) == 0 {
		return v, nil // nothing changed, nothing written
	}
	headline, body := Message(s.file, c.Old, live, c.Event, archived)
	if fw.headline != "" {
		headline, body = fw.headline+" ("+c.Event.String()+")", ""
	}
	commit, err := s.commit(ctx, v, files, headline, body)
	if err != nil {
		return v, fmt.Errorf("writing %s on %s: %w", s.file, s.read.Name, err)
	}
	if text != v.File {
		s.claim = fw.claim
	}
	s.also = nil
	s.audit, s.marks = s.pending, historyMarks(c.State)
	present := v.Outputs
	v.Head, v.File, v.Index, v.Shard, v.FileCommit = commit, text, index.legacy, index.shard, commit
	v.Outputs = outputs
	for _, p := range unresolvedFiles(live) {
		if t, ok := present[p]; ok {
			v.Outputs[p] = t
		}
	}
	return v, nil
}

// BranchCreator is a BranchWriter that also creates the branch and commits on it in one
// request (the adapter: createRef and createCommitOnBranch in one GraphQL document, run in
// order). The first state of a repository then costs one write, not two.
type BranchCreator interface {
	// CreateBranchWithCommit creates branch name at commit oid and commits files on it
	// with oid as the expected head; it returns the new commit. A branch that another
	// invocation created at oid and has not moved still takes the commit; a moved one is
	// ErrConflict; a refusal by a ruleset is ErrForbidden.
	CreateBranchWithCommit(ctx context.Context, repoID, name, oid string, files []FileChange, headline, body string) (string, error)
}

// commit commits files on v's head; when v read no branch, on the default branch's head,
// creating the state branch from it first (in the same request when the writer can).
func (s *BranchStore) commit(ctx context.Context, v Version, files []FileChange, headline, body string) (string, error) {
	if c, ok := s.w.(BranchCreator); ok && v.Head == "" {
		if s.read.DefaultHead == "" || s.read.RepoID == "" {
			return "", fmt.Errorf("creating the state branch %s: the default branch's head is unknown", s.read.Name)
		}
		commit, err := c.CreateBranchWithCommit(ctx, s.read.RepoID, s.read.Name, s.read.DefaultHead, files, headline, body)
		if err != nil {
			return "", fmt.Errorf("creating the state branch %s: %w", s.read.Name, err)
		}
		s.logf("created the state branch %s", s.read.Name)
		return commit, nil
	}
	head, err := s.head(ctx, v)
	if err != nil {
		return "", err
	}
	return s.w.CommitFiles(ctx, s.read.Name, head, files, headline, body)
}

// head is the head to commit on: v's, or the default branch's head once the state
// branch is created from it when v read none.
func (s *BranchStore) head(ctx context.Context, v Version) (string, error) {
	if v.Head != "" {
		return v.Head, nil
	}
	if s.read.DefaultHead == "" || s.read.RepoID == "" {
		return "", fmt.Errorf("creating the state branch %s: the default branch's head is unknown", s.read.Name)
	}
	if err := s.w.CreateBranch(ctx, s.read.RepoID, s.read.Name, s.read.DefaultHead); err != nil {
		return "", fmt.Errorf("creating the state branch %s: %w", s.read.Name, err)
	}
	s.logf("created the state branch %s", s.read.Name)
	return s.read.DefaultHead, nil
}
