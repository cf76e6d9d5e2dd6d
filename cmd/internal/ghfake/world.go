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
	owner, name   string
	id            int64
	defaultBranch string
	branches      map[string]*branch
	commits       map[string]*commit
	blobs         map[string]*blob
	trees         map[string]*tree // every tree served so far, by OID (trees.go)
	issues        map[int]*issue
	comments      []*comment
	// deleted are the comments deleted so far: gone from the API, but GitHub had already
	// sent their text to the subscribers' notifications.
	deleted []*comment
	labels  []string // the repository's labels, named as first created
	pushes  int
	parent  *repo // the repository this one is a fork of; nil for a repository of its own
	// restricted are the branches a ruleset restricts the creation and the update of, for
	// everyone (no bypass), each with its ruleset's id; see RestrictBranch.
	restricted map[string]int
	// settings are its mergeability and branch protection (mergeability.go).
	settings repoSettings
}

func (r *repo) fullName() string { return r.owner + "/" + r.name }

// crossRepo reports whether the pull request's head branch lives in another repository
// (a fork) than its base.
func (i *issue) crossRepo() bool { return i.headRepo != nil && i.headRepo != i.repo }

// headRepository is the repository of the head branch.
func (i *issue) headRepository() *repo {
	if i.headRepo != nil {
		return i.headRepo
	}
	return i.repo
}

// branch is a ref under refs/heads: its head commit and a flat tree of files.
type branch struct {
	name  string
	head  string
	files map[string]*blob
}

// blob is a file's content, addressed by git's blob OID.
type blob struct {
	oid  string
	text string
}

// commit is a commit with the checks and statuses reported on it: its parents (the first is
// the branch it was made on; a merge commit has the pull request's head second) and the
// files of the repository at that commit, as its tree holds them.
type commit struct {
	repo     *repo
	sha      string
	message  string
	date     time.Time
	seq      int64 // order of creation: the newer of two commits with the same date
	parents  []string
	files    map[string]*blob // path → blob at this commit; never changed once made
	suites   []*checkSuite
	checks   []*checkRun
	statuses []*status
	// author is who the commit names as its author; committer is who made it (the author,
	// or GitHub's web-flow for a commit made through the web or the API). sig is how it is
	// signed: "" unsigned, webFlow by GitHub, else by that user's own key.
	author, committer gitActor
	sig               string
	viaWeb            bool
}

// checkSuite is a check suite on a commit: one per app, or, for Actions (app
// "github-actions"), one per workflow run. A re-run of a check lands in its suite.
type checkSuite struct {
	repo     *repo
	id       int64
	app      string // the slug of the app owning the suite
	workflow string // the Actions workflow whose run this suite is; "" for other apps
	runID    int64  // the workflow run's id; 0 for other apps
}

// checkRun is a check run of a suite.
type checkRun struct {
	id          int64
	suite       *checkSuite
	name        string
	status      string // queued, in_progress, completed
	conclusion  string // success, failure, ...; "" while not completed
	completedAt time.Time
}

// status is a commit status reported through the statuses API.
type status struct {
	id        int64
	context   string
	state     string // error, failure, pending, success
	createdAt time.Time
}

// issue is an issue or, when isPR is set, a pull request.
type issue struct {
	repo      *repo
	number    int
	id        int64
	author    string
	title     string
	body      string
	labels    []string
	state     string // open, closed
	createdAt time.Time
	updatedAt time.Time
	closedAt  time.Time
	closedBy  string // who closed it (for a merged pull request, who merged it: mergedBy)

	isPR           bool
	base, head     string
	headRepo       *repo // where the head branch lives: the repository itself, or a fork of it
	baseSHA        string
	headSHA        string
	commits        []string
	files          []string
	draft          bool
	merged         bool
	mergedAt       time.Time
	mergedBy       string
	mergeMethod    string
	mergeCommitSHA string
	mergeable      string    // MERGEABLE, CONFLICTING, UNKNOWN
	calc           mergeCalc // GitHub's late computation of mergeable (mergeability.go)
	branchDeleted  bool
	reviews        []*review
	requested      []string // requested reviewers; teams as "team:<slug>"
	assignees      []string
	timeline       []*timelineEvent
}

// review is a pull request review; state is GraphQL's spelling (APPROVED, CHANGES_REQUESTED,
// COMMENTED, DISMISSED).
type review struct {
	pr          *issue
	id          int64
	user        string
	state       string
	body        string
	commitID    string
	submittedAt time.Time
}

// comment is an issue comment (on an issue or on a pull request's conversation). An edit
// keeps the author and records the editor, as GitHub does.
type comment struct {
	id           int64
	issue        int
	author       string
	body         string
	createdAt    time.Time
	updatedAt    time.Time
	editor       string    // the last editor; "" until edited
	lastEditedAt time.Time // zero until edited
	// edits are the earlier bodies, oldest first: GitHub keeps a comment's edit history
	// (userContentEdits), readable by anyone who can read the comment.
	edits []string
}

// edit replaces the body as user, at now.
func (c *comment) edit(user, body string, now time.Time) {
	c.edits = append(c.edits, c.body)
	c.body, c.editor, c.lastEditedAt, c.updatedAt = body, user, now, now
}

// timeZeroValue is the zero time, for clearing timestamps.
var timeZeroValue time.Time

// label returns the name of repository r's label name, creating the label on first use, as
// adding a label GitHub does not know creates it. GitHub compares label names without regard to
// case: adding "security" where "Security" exists attaches "Security".
func (r *repo) label(name string) string {
	for _, l := range r.labels {
		if strings.EqualFold(l, name) {
			return l
		}
	}
	r.labels = append(r.labels, name)
	return name
}

// labelSet adds r's label name to labels unless present (case-insensitively, as GitHub
// compares labels).
func labelSet(r *repo, labels []string, name string) []string {
	name = r.label(name)
	for _, l := range labels {
		if strings.EqualFold(l, name) {
			return labels
		}
	}
	return append(labels, name)
}

// labelDel removes name from labels (case-insensitively) and returns the name of the label it
// removed, "" when it was not there.
func labelDel(labels []string, name string) ([]string, string) {
	for i, l := range labels {
		if strings.EqualFold(l, name) {
			return append(labels[:i:i], labels[i+1:]...), l
		}
	}
	return labels, ""
}

// blobOID is git's object id of a blob: sha1 of "blob <len>\x00<content>".
func blobOID(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

// fakeSHA is a deterministic commit id made from its parts.
func fakeSHA(parts ...any) string {
	h := sha1.New()
	fmt.Fprintln(h, parts...)
	return hex.EncodeToString(h.Sum(nil))
}

// stableID is a deterministic positive id for a name (users, repositories).
func stableID(name string) int64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int64(h.Sum32()%90_000_000) + 1_000_000
}

// nodeID is a GraphQL global id in GitHub's legacy form: base64("<len>:<Type><id>").
func nodeID(typ string, id int64) string {
	s := fmt.Sprintf("%s%d", typ, id)
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%02d:%s", len(typ), s)))
}

// permRank orders permissions; unknown users rank as "none".
var permRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

// canPush reports whether the permission lets a user push to the repository.
func canPush(perm string) bool { return permRank[perm] >= permRank["write"] }
