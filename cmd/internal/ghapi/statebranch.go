package ghapi

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

var (
	_ state.BranchWriter  = (*Client)(nil)
	_ state.BranchCreator = (*Client)(nil)
)

// stateCommit is the commit that last changed a file of the state branch: who made it,
// and whether GitHub signed it (state.TrustFile).
type stateCommit struct {
	Oid           string
	CommittedDate githubv4.DateTime
	Author        *struct {
		Name  string
		Email string
		User  *struct{ Login string }
	}
	Signature *struct {
		IsValid           bool
		WasSignedByGitHub bool
	}
}

// stateFile is a file at the state branch's head, read through the head commit itself
// (Commit.file), so that the text read is the text at the head whose OID the commit
// compares against: a ref and an object(expression:) are resolved apart.
type stateFile struct {
	Object *struct {
		Blob blobFields `graphql:"... on Blob"`
	}
}

// stateRef is what the facts query reads of the state branch.
type stateRef struct {
	Target *struct {
		Oid    string
		Commit struct {
			File     *stateFile                    `graphql:"stateFile: file(path: $stateFile)"`
			FileLog  struct{ Nodes []stateCommit } `graphql:"stateFileLog: history(first: 1, path: $stateFile)"`
			Index    *stateFile                    `graphql:"stateIndex: file(path: $stateIndex)"`
			Shard    *stateFile                    `graphql:"stateShard: file(path: $stateShard)"`
			ShardLog struct{ Nodes []stateCommit } `graphql:"stateShardLog: history(first: 1, path: $stateShard)"`
			Outputs  *stateDir                     `graphql:"stateOutputs: file(path: $stateOutputs)"`
			Defs     *stateFile                    `graphql:"stateDefs: file(path: \"definitions.json\")"`
			DefsLog  struct{ Nodes []stateCommit } `graphql:"stateDefsLog: history(first: 1, path: \"definitions.json\")"`
		} `graphql:"... on Commit"`
	}
}

// stateDir is the subject's outputs directory at the state branch's head: its files'
// text, which the digests in the state vouch for.
type stateDir struct {
	Object *struct {
		Tree struct {
			Entries []treeEntryNode
		} `graphql:"... on Tree"`
	}
}

// stateVars are the variables of the state branch's part of a query.
func stateVars(vars map[string]any, branch, file string) {
	vars["stateRef"] = githubv4.String("refs/heads/" + branch)
	vars["stateFile"] = githubv4.String(file)
	vars["stateIndex"] = githubv4.String(state.IndexFile)
	vars["stateShard"] = githubv4.String(state.ShardFile(file))
	vars["stateOutputs"] = githubv4.String(state.OutputsDir(file))
}

// branchRead turns what a query read of the state branch into a state.BranchRead.
func branchRead(name, file string, ref *stateRef) state.BranchRead {
	r := state.BranchRead{Name: name}
	if ref == nil || ref.Target == nil {
		return r
	}
	r.Exists, r.Head = true, ref.Target.Oid
	c := ref.Target.Commit
	r.File = branchFile(file, c.File, c.FileLog.Nodes)
	r.Index = branchFile(state.IndexFile, c.Index, nil) // its commit matters only to OpenRuns
	r.Shard = branchFile(state.ShardFile(file), c.Shard, c.ShardLog.Nodes)
	r.Outputs = outputFiles(state.OutputsDir(file), c.Outputs)
	r.Definitions = branchFile(state.DefinitionsFile, c.Defs, c.DefsLog.Nodes)
	return r
}

// outputFiles are the files of an outputs directory: path → text, "" for a file GitHub
// gave no whole text of (its digest does not match then). nil when there is none.
func outputFiles(dir string, d *stateDir) map[string]string {
	if d == nil || d.Object == nil || len(d.Object.Tree.Entries) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, e := range d.Object.Tree.Entries {
		if e.Object == nil || e.Object.Blob.Oid == "" {
			continue // a directory: never written there
		}
		b := e.Object.Blob.blob()
		if b.Truncated || e.Object.Blob.Text == nil {
			b.Text = ""
		}
		out[dir+"/"+e.Name] = b.Text
	}
	return out
}

func branchFile(path string, f *stateFile, log []stateCommit) *state.BranchFile {
	if f == nil || f.Object == nil || f.Object.Blob.Oid == "" {
		return nil // absent, or a directory
	}
	b := f.Object.Blob.blob()
	out := &state.BranchFile{Path: path, Text: b.Text, Truncated: b.Truncated || f.Object.Blob.Text == nil}
	if len(log) > 0 {
		c := log[0]
		out.Commit, out.Date = c.Oid, c.CommittedDate.Time
		out.Author = commitAuthor(c)
		out.Signed = c.Signature != nil && c.Signature.IsValid && c.Signature.WasSignedByGitHub
	}
	return out
}

// commitAuthor is the login of the account a commit's author is, as Login spells it; ""
// when GitHub ties it to none. GitActor.user is a User: an app's bot account (the
// Actions token's "github-actions[bot]") may come without one, and is then known by the
// name and the no-reply address GitHub gives its commits ("<id>+<slug>[bot]@users.
// noreply.github.com"). Anyone can write those into a commit they push, but such a
// commit is not signed by GitHub, which TrustFile requires as well.
func commitAuthor(c stateCommit) string {
	a := c.Author
	switch {
	case a == nil:
		return ""
	case a.User != nil:
		return Login(a.User.Login, "User")
	case strings.HasSuffix(a.Name, "[bot]") && strings.HasSuffix(a.Email, "+"+a.Name+"@users.noreply.github.com"):
		return a.Name
	}
	return ""
}

// CreateBranch creates branch name at commit oid with createRef.
// https://docs.github.com/en/graphql/reference/mutations#createref
func (c *Client) CreateBranch(ctx context.Context, repoID, name, oid string) error {
	var m struct {
		CreateRef struct {
			Ref *struct{ Name string }
		} `graphql:"createRef(input: $input)"`
	}
	in := githubv4.CreateRefInput{RepositoryID: githubv4.ID(repoID), Name: githubv4.String("refs/heads/" + name), Oid: githubv4.GitObjectID(oid)}
	if err := c.gql.Mutate(ctx, &m, in, nil); err != nil {
		return fmt.Errorf("createRef refs/heads/%s: %w", name, classifyWrite(err))
	}
	return nil
}

// CommitFiles commits files on branch with createCommitOnBranch, if its head is still
// expectedHead, and returns the new commit's OID.
// https://docs.github.com/en/graphql/reference/mutations#createcommitonbranch
func (c *Client) CommitFiles(ctx context.Context, branch, expectedHead string, files []state.FileChange, headline, body string) (string, error) {
	var m struct {
		CreateCommitOnBranch commitPayload `graphql:"createCommitOnBranch(input: $input)"`
	}
	if err := c.gql.Mutate(ctx, &m, commitInput(c.Owner+"/"+c.Repo, branch, expectedHead, files, headline, body), nil); err != nil {
		return "", fmt.Errorf("createCommitOnBranch on %s: %w", branch, classifyWrite(err))
	}
	return m.CreateCommitOnBranch.oid(branch)
}

// commitPayload is what createCommitOnBranch answers: the new commit.
type commitPayload struct {
	Commit *struct{ Oid string }
}

func (p commitPayload) oid(branch string) (string, error) {
	if p.Commit == nil || p.Commit.Oid == "" {
		return "", fmt.Errorf("createCommitOnBranch on %s: GitHub returned no commit", branch)
	}
	return p.Commit.Oid, nil
}

// commitInput is createCommitOnBranch's input: files added or deleted on branch of repo (owner/name), whose
// head must still be expectedHead.
func commitInput(repo, branch, expectedHead string, files []state.FileChange, headline, body string) githubv4.CreateCommitOnBranchInput {
	adds := []githubv4.FileAddition{}
	var dels []githubv4.FileDeletion
	for _, f := range files {
		if f.Delete {
			dels = append(dels, githubv4.FileDeletion{Path: githubv4.String(f.Path)})
			continue
		}
		adds = append(adds, githubv4.FileAddition{Path: githubv4.String(f.Path), Contents: githubv4.Base64String(base64.StdEncoding.EncodeToString([]byte(f.Text)))})
	}
	changes := &githubv4.FileChanges{Additions: &adds}
	if len(dels) > 0 {
		changes.Deletions = &dels
	}
	msg := githubv4.CommitMessage{Headline: githubv4.String(headline)}
	if body != "" {
		msg.Body = githubv4.NewString(githubv4.String(body))
	}
	return githubv4.CreateCommitOnBranchInput{
		Branch: githubv4.CommittableBranch{
			RepositoryNameWithOwner: githubv4.NewString(githubv4.String(repo)),
			BranchName:              githubv4.NewString(githubv4.String(branch)),
		},
		Message:         msg,
		ExpectedHeadOid: githubv4.GitObjectID(expectedHead),
		FileChanges:     changes,
	}
}

// CreateBranchWithCommit creates branch name at oid and commits files on it, in one
// GraphQL document whose two mutations GitHub runs in order: the first state of a
// repository costs one request. When the branch existed already (another invocation
// created it) the commit still lands if the head is oid, and the answer carries it beside
// createRef's error; otherwise the first error tells why (a ruleset, a moved head).
func (c *Client) CreateBranchWithCommit(ctx context.Context, repoID, name, oid string, files []state.FileChange, headline, body string) (string, error) {
	var m struct {
		CreateRef struct {
			Ref *struct{ Name string }
		} `graphql:"createRef(input: $ref)"`
		CreateCommitOnBranch commitPayload `graphql:"createCommitOnBranch(input: $input)"`
	}
	ref := githubv4.CreateRefInput{RepositoryID: githubv4.ID(repoID), Name: githubv4.String("refs/heads/" + name), Oid: githubv4.GitObjectID(oid)}
	err := c.gql.Mutate(ctx, &m, commitInput(c.Owner+"/"+c.Repo, name, oid, files, headline, body), map[string]any{"ref": ref})
	if err != nil && (m.CreateCommitOnBranch.Commit == nil || IsRateLimit(err)) {
		return "", fmt.Errorf("createRef and createCommitOnBranch on %s: %w", name, classifyWrite(err))
	}
	return m.CreateCommitOnBranch.oid(name)
}

// classifyWrite tells a write to the state branch that lost a race (state.ErrConflict:
// the head moved, the branch is gone or was just created by another invocation) and
// one that GitHub refuses for good (state.ErrForbidden: a ruleset, a branch
// protection, a token without contents: write, each of which GitHub says in its
// message) from other failures, which stay as they are: a rate limit (a 403 too, but
// one that passes: taking it for a refusal would drop compare-and-swap while another
// invocation holds it), a timeout, a server error, a 403 or 422 that names no rule.
// githubv4 gives GraphQL errors by their message only; the transport gives rate limits
// their own type.
func classifyWrite(err error) error {
	if IsRateLimit(err) {
		return err
	}
	msg := strings.ToLower(err.Error())
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(msg, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("rate limit"):
		return err
	case has("expected branch to point to", "branch not found", "does not exist", "no commit exists", "already exists"):
		return fmt.Errorf("%w: %v", state.ErrConflict, err)
	case has("repository rule violations", "protected branch", "protected ref", "resource not accessible",
		"does not have the correct permissions"):
		return fmt.Errorf("%w: %v", state.ErrForbidden, err)
	}
	return err
}
