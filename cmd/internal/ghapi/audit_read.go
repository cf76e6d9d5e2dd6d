package ghapi

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

// auditQuery reads, at the state branch's head, what a subject's whole trail is made of:
// its file, its audit parts and its archived runs (state.Trail).
type auditQuery struct {
	Repository struct {
		Ref *struct {
			Target *struct {
				Oid    string
				Commit struct {
					File     *stateFile                    `graphql:"stateFile: file(path: $stateFile)"`
					FileLog  struct{ Nodes []stateCommit } `graphql:"stateFileLog: history(first: 1, path: $stateFile)"`
					Parts    *stateDir                     `graphql:"auditParts: file(path: $auditDir)"`
					Archives *stateDir                     `graphql:"auditArchive: file(path: $archiveDir)"`
				} `graphql:"... on Commit"`
			}
		} `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// ReadAudit reads what the subject whose state file is file holds on branch, in one
// GraphQL query. exists is false when there is no such branch.
func (c *Client) ReadAudit(ctx context.Context, branch, file string) (read state.AuditRead, head string, exists bool, err error) {
	parts, archives := state.AuditDir(file), state.ArchiveDir(file)
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
		"stateRef": githubv4.String("refs/heads/" + branch), "stateFile": githubv4.String(file),
		"auditDir": githubv4.String(parts), "archiveDir": githubv4.String(archives)}
	var q auditQuery
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return read, "", false, fmt.Errorf("reading the audit of %s on %s/%s: %w", file, c.Owner, c.Repo, err)
	}
	ref := q.Repository.Ref
	if ref == nil || ref.Target == nil {
		return read, "", false, nil
	}
	cm := ref.Target.Commit
	read.File = branchFile(file, cm.File, cm.FileLog.Nodes)
	read.Parts = outputFiles(parts, cm.Parts)
	read.Archives = outputFiles(archives, cm.Archives)
	return read, ref.Target.Oid, true, nil
}
