package world

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// Repo is one repository of the world: branches with their files, commits, and the issues and pull
// requests that share one number space.
type Repo struct {
	Owner, Name   string
	ID            int64
	DefaultBranch string
	Branches      map[string]*Branch
	Commits       map[string]*Commit
	Blobs         map[string]*Blob
	Trees         map[string]*Tree // every tree served so far, by OID
	Issues        map[int]*Issue
	Comments      []*Comment
	// deleted are the comments deleted so far: gone from the API, but GitHub had already
	// sent their text to the subscribers' notifications.
	Deleted []*Comment
	Labels  []string // the repository's labels, named as first created
	Pushes  int
	Parent  *Repo // the repository this one is a fork of; nil for a repository of its own
	// restricted are the branches a ruleset restricts the creation and the update of, for
	// everyone (no bypass), each with its ruleset's id; see RestrictBranch.
	Restricted map[string]int
	// settings are its mergeability and branch protection.
	Settings RepoSettings
	// histories keeps the histories History served.
	histories histories
	// mergeBases keeps the merge bases MergeBase found, by the two commits.
	mergeBases map[[2]string]string
	// PushLog are the branch updates made through the API, oldest first: GitHub sends a
	// push event for each.
	PushLog []Push
	// Queues are the merge queues of its base branches, front first.
	Queues map[string][]*QueueEntry
}

func (r *Repo) FullName() string { return r.Owner + "/" + r.Name }

// CrossRepo reports whether the pull request's head branch lives in another repository
// (a fork) than its base.
func (i *Issue) CrossRepo() bool { return i.HeadRepo != nil && i.HeadRepo != i.Repo }

// HeadRepository is the repository of the head branch.
func (i *Issue) HeadRepository() *Repo {
	if i.HeadRepo != nil {
		return i.HeadRepo
	}
	return i.Repo
}

// Branch is a ref under refs/heads: its head commit and a flat tree of files.
type Branch struct {
	Name  string
	Head  string
	Files map[string]*Blob
}

// Blob is a file's content, addressed by git's blob OID.
type Blob struct {
	OID  string
	Text string
}

// Commit is a commit with the checks and statuses reported on it: its parents (the first is
// the branch it was made on; a merge commit has the pull request's head second) and the
// files of the repository at that commit, as its tree holds them.
type Commit struct {
	Repo     *Repo
	SHA      string
	Message  string
	Date     time.Time
	Seq      int64 // order of creation: the newer of two commits with the same date
	Parents  []string
	Files    map[string]*Blob // path → blob at this commit; never changed once made
	Suites   []*CheckSuite
	Checks   []*CheckRun
	Statuses []*Status
	Deploys  []*Deploy // its deployments, oldest first
	// author is who the commit names as its author; committer is who made it (the author,
	// or GitHub's web-flow for a commit made through the web or the API). sig is how it is
	// signed: "" unsigned, webFlow by GitHub, else by that user's own key.
	Author, Committer GitActor
	Sig               string
	ViaWeb            bool
	// UpdatedBy is who had GitHub merge the base into a pull request's branch with this
	// commit (update-branch); "" for any other commit.
	UpdatedBy string
}

// CheckSuite is a check suite on a commit: one per app, or, for Actions (app
// "github-actions"), one per workflow run. A re-run of a check lands in its suite.
type CheckSuite struct {
	Repo     *Repo
	ID       int64
	App      string // the slug of the app owning the suite
	Workflow string // the Actions workflow whose run this suite is; "" for other apps
	RunID    int64  // the workflow run's id; 0 for other apps
}

// CheckRun is a check run of a suite.
type CheckRun struct {
	ID          int64
	Suite       *CheckSuite
	Name        string
	Status      string // queued, in_progress, completed
	Conclusion  string // success, failure, ...; "" while not completed
	CompletedAt time.Time
}

// Status is a commit status reported through the statuses API.
type Status struct {
	ID        int64
	Context   string
	State     string // error, failure, pending, success
	CreatedAt time.Time
	// Description and TargetURL are what the status says and links to; nil: none given.
	Description, TargetURL *string
	// Creator is the login that created it: its status event's sender.
	Creator string
}

// Issue is an issue or, when isPR is set, a pull request.
type Issue struct {
	Repo      *Repo
	Number    int
	ID        int64
	Author    string
	Title     string
	Body      string
	Labels    []string
	State     string // open, closed
	CreatedAt time.Time
	UpdatedAt time.Time
	ClosedAt  time.Time
	ClosedBy  string // who closed it (for a merged pull request, who merged it: mergedBy)

	IsPR       bool
	Base, Head string
	HeadRepo   *Repo // where the head branch lives: the repository itself, or a fork of it
	// NoMaintainerEdits: a fork's pull request whose author unticked "Allow edits by
	// maintainers": no one but the fork's owner may push to its branch.
	NoMaintainerEdits bool
	BaseSHA           string
	HeadSHA           string
	Commits           []string
	Files             []string
	Draft             bool
	Merged            bool
	MergedAt          time.Time
	MergedBy          string
	MergeMethod       string
	MergeCommitSHA    string
	Mergeable         string    // MERGEABLE, CONFLICTING, UNKNOWN
	Calc              MergeCalc // GitHub's late computation of mergeable
	BranchDeleted     bool
	Reviews           []*Review
	Requested         []string // requested reviewers; teams as "team:<slug>"
	Assignees         []string
	Timeline          []*TimelineEvent
}

// Review is a pull request review; state is GraphQL's spelling (APPROVED, CHANGES_REQUESTED,
// COMMENTED, DISMISSED).
type Review struct {
	Pr          *Issue
	ID          int64
	User        string
	State       string
	Body        string
	CommitID    string
	SubmittedAt time.Time
	// Conversation is set when the review opened a review conversation (an inline comment's
	// thread); Resolved once someone resolved it.
	Conversation, Resolved bool
	// Editor and LastEditedAt are set once its body was edited: GitHub lets its author, and
	// anyone with write access, edit a review's body, and keeps its author.
	Editor       string
	LastEditedAt time.Time
}

// Comment is an issue comment (on an issue or on a pull request's conversation). An edit
// keeps the author and records the editor, as GitHub does.
type Comment struct {
	ID           int64
	Issue        int
	Author       string
	Body         string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	Editor       string    // the last editor; "" until edited
	LastEditedAt time.Time // zero until edited
	// edits are the earlier bodies, oldest first: GitHub keeps a comment's edit history
	// (userContentEdits), readable by anyone who can read the comment.
	Edits []string
}

// Edit replaces the body as user, at now.
func (c *Comment) Edit(user, body string, now time.Time) {
	c.Edits = append(c.Edits, c.Body)
	c.Body, c.Editor, c.LastEditedAt, c.UpdatedAt = body, user, now, now
}

// Label returns the name of repository r's label name, creating the label on first use, as
// adding a label GitHub does not know creates it. GitHub compares label names without regard to
// case: adding "security" where "Security" exists attaches "Security".
func (r *Repo) Label(name string) string {
	for _, l := range r.Labels {
		if strings.EqualFold(l, name) {
			return l
		}
	}
	r.Labels = append(r.Labels, name)
	return name
}

// LabelSet adds r's label name to labels unless present (case-insensitively, as GitHub
// compares labels).
func LabelSet(r *Repo, labels []string, name string) []string {
	name = r.Label(name)
	for _, l := range labels {
		if strings.EqualFold(l, name) {
			return labels
		}
	}
	return append(labels, name)
}

// LabelDel removes name from labels (case-insensitively) and returns the name of the label it
// removed, "" when it was not there.
func LabelDel(labels []string, name string) ([]string, string) {
	for i, l := range labels {
		if strings.EqualFold(l, name) {
			return append(labels[:i:i], labels[i+1:]...), l
		}
	}
	return labels, ""
}

// BlobOID is git's object id of a blob: sha1 of "blob <len>\x00<content>".
func BlobOID(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

// FakeSHA is a deterministic commit id made from its parts.
func FakeSHA(parts ...any) string {
	h := sha1.New()
	fmt.Fprintln(h, parts...)
	return hex.EncodeToString(h.Sum(nil))
}

// StableID is a deterministic positive id for a name (users, repositories).
func StableID(name string) int64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int64(h.Sum32()%90_000_000) + 1_000_000
}

// NodeID is a GraphQL global id in GitHub's legacy form: base64("<len>:<Type><id>").
func NodeID(typ string, id int64) string {
	s := fmt.Sprintf("%s%d", typ, id)
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%02d:%s", len(typ), s)))
}

// CopyFiles copies a path → blob map.
func CopyFiles(files map[string]*Blob) map[string]*Blob {
	out := make(map[string]*Blob, len(files))
	for p, bl := range files {
		out[p] = bl
	}
	return out
}
