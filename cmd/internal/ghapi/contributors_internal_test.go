package ghapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Who wrote a pull request: authors and committers, each once; GitHub's web-flow and a
// merge GitHub made and signed for "Update branch" wrote nothing; a merge commit that only
// claims web-flow as its committer (unsigned) is its author's.
func TestContributors(t *testing.T) {
	user := func(login string) *gitActorNode { return &gitActorNode{User: &struct{ Login string }{login}} }
	var conn contributorsConn
	add := func(author, committer *gitActorNode, parents int, signedByGitHub bool) {
		var n contributorNode
		n.Commit.Author, n.Commit.Committer, n.Commit.Parents.TotalCount = author, committer, parents
		if signedByGitHub {
			n.Commit.Signature = &signatureNode{IsValid: true, WasSignedByGitHub: true}
		}
		conn.Nodes = append(conn.Nodes, n)
	}
	add(user("dev"), user("dev"), 1, false)
	add(user("Dev"), user("bob"), 1, false)
	add(user("carol"), user("web-flow"), 1, true) // a web edit: carol wrote it
	add(user("alice"), user("web-flow"), 2, true) // Update branch: alice wrote nothing
	add(user("erin"), user("web-flow"), 2, false) // claims to be one, unsigned
	add(&gitActorNode{}, nil, 1, false)           // an email GitHub does not know
	assert.Equal(t, []string{"dev", "bob", "carol", "erin"}, contributors(conn))
}
