package ghfake

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// BotLogin is the REST login of the identity the action runs as.
const BotLogin = "github-actions[bot]"

// repo is one repository of the world: branches with their files, commits, and the issues and pull
// requests that share one number space.
type repo struct {
	Owner, Name   string
	ID            int64
	DefaultBranch string
	Branches      map[string]*branch
	Commits       map[string]*commit
	Blobs         map[string]*blob
	Trees         map[string]*tree // every tree served so far, by OID (trees.go)
	Issues        map[int]*issue
	Comments      []*comment
	// deleted are the comments deleted so far: gone from the API, but GitHub had already
	// sent their text to the subscribers' notifications.
	Deleted []*comment
	Labels  []string // the repository's labels, named as first created
	Pushes  int
	Parent  *repo // the repository this one is a fork of; nil for a repository of its own
	// restricted are the branches a ruleset restricts the creation and the update of, for
	// everyone (no bypass), each with its ruleset's id; see RestrictBranch.
	Restricted map[string]int
	// settings are its mergeability and branch protection (mergeability.go).
	Settings repoSettings
}

func (r *repo) FullName() string { return r.Owner + "/" + r.Name }

// crossRepo reports whether the pull request's head branch lives in another repository
// (a fork) than its base.
func (i *issue) CrossRepo() bool { return i.HeadRepo != nil && i.HeadRepo != i.Repo }

// headRepository is the repository of the head branch.
func (i *issue) HeadRepository() *repo {
	if i.HeadRepo != nil {
		return i.HeadRepo
	}
	return i.Repo
}

// branch is a ref under refs/heads: its head commit and a flat tree of files.
type branch struct {
	Name  string
	Head  string
	Files map[string]*blob
}

// blob is a file's content, addressed by git's blob OID.
type blob struct {
	OID  string
	Text string
}

// commit is a commit with the checks and statuses reported on it: its parents (the first is
// the branch it was made on; a merge commit has the pull request's head second) and the
// files of the repository at that commit, as its tree holds them.
type commit struct {
	Repo     *repo
	SHA      string
	Message  string
	Date     time.Time
	Seq      int64 // order of creation: the newer of two commits with the same date
	Parents  []string
	Files    map[string]*blob // path → blob at this commit; never changed once made
	Suites   []*checkSuite
	Checks   []*checkRun
	Statuses []*status
	// author is who the commit names as its author; committer is who made it (the author,
	// or GitHub's web-flow for a commit made through the web or the API). sig is how it is
	// signed: "" unsigned, webFlow by GitHub, else by that user's own key.
	Author, Committer gitActor
	Sig               string
	ViaWeb            bool
}

// checkSuite is a check suite on a commit: one per app, or, for Actions (app
// "github-actions"), one per workflow run. A re-run of a check lands in its suite.
type checkSuite struct {
	Repo     *repo
	ID       int64
	App      string // the slug of the app owning the suite
	Workflow string // the Actions workflow whose run this suite is; "" for other apps
	RunID    int64  // the workflow run's id; 0 for other apps
}

// checkRun is a check run of a suite.
type checkRun struct {
	ID          int64
	Suite       *checkSuite
	Name        string
	Status      string // queued, in_progress, completed
	Conclusion  string // success, failure, ...; "" while not completed
	CompletedAt time.Time
}

// status is a commit status reported through the statuses API.
type status struct {
	ID        int64
	Context   string
	State     string // error, failure, pending, success
	CreatedAt time.Time
}

// issue is an issue or, when isPR is set, a pull request.
type issue struct {
	Repo      *repo
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

	IsPR           bool
	Base, Head     string
	HeadRepo       *repo // where the head branch lives: the repository itself, or a fork of it
	BaseSHA        string
	HeadSHA        string
	Commits        []string
	Files          []string
	Draft          bool
	Merged         bool
	MergedAt       time.Time
	MergedBy       string
	MergeMethod    string
	MergeCommitSHA string
	Mergeable      string    // MERGEABLE, CONFLICTING, UNKNOWN
	Calc           mergeCalc // GitHub's late computation of mergeable (mergeability.go)
	BranchDeleted  bool
	Reviews        []*review
	Requested      []string // requested reviewers; teams as "team:<slug>"
	Assignees      []string
	Timeline       []*timelineEvent
}

// review is a pull request review; state is GraphQL's spelling (APPROVED, CHANGES_REQUESTED,
// COMMENTED, DISMISSED).
type review struct {
	Pr          *issue
	ID          int64
	User        string
	State       string
	Body        string
	CommitID    string
	SubmittedAt time.Time
}

// comment is an issue comment (on an issue or on a pull request's conversation). An edit
// keeps the author and records the editor, as GitHub does.
type comment struct {
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

// edit replaces the body as user, at now.
func (c *comment) Edit(user, body string, now time.Time) {
	c.Edits = append(c.Edits, c.Body)
	c.Body, c.Editor, c.LastEditedAt, c.UpdatedAt = body, user, now, now
}

// timeZeroValue is the zero time, for clearing timestamps.
var timeZeroValue time.Time

// label returns the name of repository r's label name, creating the label on first use, as
// adding a label GitHub does not know creates it. GitHub compares label names without regard to
// case: adding "security" where "Security" exists attaches "Security".
func (r *repo) Label(name string) string {
	for _, l := range r.Labels {
		if strings.EqualFold(l, name) {
			return l
		}
	}
	r.Labels = append(r.Labels, name)
	return name
}

// labelSet adds r's label name to labels unless present (case-insensitively, as GitHub
// compares labels).
func LabelSet(r *repo, labels []string, name string) []string {
	name = r.Label(name)
	for _, l := range labels {
		if strings.EqualFold(l, name) {
			return labels
		}
	}
	return append(labels, name)
}

// labelDel removes name from labels (case-insensitively) and returns the name of the label it
// removed, "" when it was not there.
func LabelDel(labels []string, name string) ([]string, string) {
	for i, l := range labels {
		if strings.EqualFold(l, name) {
			return append(labels[:i:i], labels[i+1:]...), l
		}
	}
	return labels, ""
}

// blobOID is git's object id of a blob: sha1 of "blob <len>\x00<content>".
func BlobOID(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

// fakeSHA is a deterministic commit id made from its parts.
func FakeSHA(parts ...any) string {
	h := sha1.New()
	fmt.Fprintln(h, parts...)
	return hex.EncodeToString(h.Sum(nil))
}

// stableID is a deterministic positive id for a name (users, repositories).
func StableID(name string) int64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int64(h.Sum32()%90_000_000) + 1_000_000
}

// nodeID is a GraphQL global id in GitHub's legacy form: base64("<len>:<Type><id>").
func NodeID(typ string, id int64) string {
	s := fmt.Sprintf("%s%d", typ, id)
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%02d:%s", len(typ), s)))
}

// permRank orders permissions; unknown users rank as "none".
var permRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

// canPush reports whether the permission lets a user push to the repository.
func canPush(perm string) bool { return permRank[perm] >= permRank["write"] }
