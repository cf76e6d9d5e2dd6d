package rest

import (
	"encoding/base64"
	"fmt"
	"net/http"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// reposPutContent creates or replaces one file on a branch in a commit of the token's
// identity, signed by GitHub as the commits an app's token makes through the API are: a
// file that exists is replaced only with its blob's sha (none: 422; another: 409).
// https://docs.github.com/en/rest/repos/contents#create-or-update-file-contents
func reposPutContent(s *Env, c *restCtx) (int, any) {
	var in struct {
		Message, Content, SHA, Branch string
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	if in.Branch == "" {
		in.Branch = c.repo.DefaultBranch
	}
	b, p := c.repo.Branches[in.Branch], c.params["path"]
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	switch {
	case b == nil:
		return http.StatusNotFound, ErrorBody("Branch " + in.Branch + " not found")
	case err != nil || in.Message == "":
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\n\"content\" is not valid Base64, or \"message\" wasn't supplied.")
	case b.Files[p] != nil && in.SHA == "":
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\n\"sha\" wasn't supplied.")
	case b.Files[p] != nil && in.SHA != b.Files[p].OID, b.Files[p] == nil && in.SHA != "":
		return http.StatusConflict, ErrorBody(fmt.Sprintf("%s does not match %s", p, in.SHA))
	case c.repo.RefusedBy(b.Name, true) != "":
		return http.StatusConflict, ErrorBody(world.RuleViolation(c.repo.RefusedBy(b.Name, true)))
	}
	code := http.StatusOK
	if b.Files[p] == nil {
		code = http.StatusCreated
	}
	bl := &world.Blob{OID: world.BlobOID(string(raw)), Text: string(raw)}
	c.repo.Blobs[bl.OID] = bl
	files := world.CopyFiles(b.Files)
	files[p] = bl
	c.repo.Pushes++
	cm := s.NewCommit(c.repo, in.Message, []string{b.Head}, files, c.repo.FullName(), b.Name, b.Head, c.repo.Pushes).Authored(c.login, true)
	b.Head, b.Files = cm.SHA, files
	return code, shapes.Obj{"content": shapes.Obj{"name": p, "path": p, "sha": bl.OID, "size": len(raw), "type": "file"},
		"commit": shapes.Obj{"sha": cm.SHA, "message": in.Message}}
}
