package rest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// refBody is the body of a 422 of the git refs operations: the message, the operation's
// documentation and the status, as GitHub writes them.
func refBody(message, anchor string) shapes.Obj {
	return shapes.Obj{"message": message, "documentation_url": "https://docs.github.com/rest/git/refs#" + anchor, "status": "422"}
}

// gitGetRef: https://docs.github.com/rest/git/refs#get-a-reference (branches only)
func gitGetRef(s *Env, c *restCtx) (int, any) {
	name, ok := strings.CutPrefix(c.params["ref"], "heads/")
	if b := c.repo.Branches[name]; ok && b != nil {
		return http.StatusOK, s.RefJSON(c.repo, b)
	}
	return http.StatusNotFound, NotFound()
}

// gitCreateRef: https://docs.github.com/rest/git/refs#create-a-reference (branches only)
func gitCreateRef(s *Env, c *restCtx) (int, any) {
	var in struct{ Ref, SHA string }
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	name, ok := strings.CutPrefix(in.Ref, "refs/heads/")
	switch {
	case !ok || name == "":
		return http.StatusUnprocessableEntity, ErrorBody("Reference name must start with 'refs/heads/' in this fake")
	case c.repo.Branches[name] != nil:
		return http.StatusUnprocessableEntity, refBody("Reference already exists", "create-a-reference")
	case c.repo.Commits[in.SHA] == nil:
		return http.StatusUnprocessableEntity, ErrorBody("Object does not exist")
	case c.repo.RefusedBy(name, false) != "":
		return http.StatusUnprocessableEntity, refBody(world.RuleViolation(c.repo.RefusedBy(name, false)), "create-a-reference")
	}
	b := s.EnsureBranch(c.repo, name)
	b.Head, b.Files = in.SHA, world.CopyFiles(c.repo.Commits[in.SHA].Files)
	return http.StatusCreated, s.RefJSON(c.repo, b)
}

// gitUpdateRef: https://docs.github.com/rest/git/refs#update-a-reference. Without force, the
// new commit must have the branch's head among its ancestors, as GitHub requires.
func gitUpdateRef(s *Env, c *restCtx) (int, any) {
	var in struct {
		SHA   string `json:"sha"`
		Force bool   `json:"force"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	name, _ := strings.CutPrefix(c.params["ref"], "heads/")
	b := c.repo.Branches[name]
	switch {
	case b == nil:
		return http.StatusUnprocessableEntity, ErrorBody("Reference does not exist")
	case c.repo.Commits[in.SHA] == nil:
		return http.StatusUnprocessableEntity, ErrorBody("Object does not exist")
	case c.repo.RefusedBy(name, true) != "":
		return http.StatusUnprocessableEntity, refBody(world.RuleViolation(c.repo.RefusedBy(name, true)), "update-a-reference")
	case !in.Force && !c.repo.Ancestors(in.SHA)[b.Head]:
		return http.StatusUnprocessableEntity, refBody("Update is not a fast forward", "update-a-reference")
	}
	b.Head, b.Files = in.SHA, world.CopyFiles(c.repo.Commits[in.SHA].Files)
	return http.StatusOK, s.RefJSON(c.repo, b)
}

// reposGetBranch: https://docs.github.com/rest/branches/branches#get-a-branch
func reposGetBranch(s *Env, c *restCtx) (int, any) {
	b := c.repo.Branches[c.params["branch"]]
	if b == nil {
		return http.StatusNotFound, ErrorBody("Branch not found")
	}
	fn := c.repo.FullName()
	api := s.APIURL("/repos/%s/branches/%s", fn, b.Name)
	p := c.repo.Settings.Protection[b.Name]
	checks, level := []any{}, "off"
	if p != nil {
		for _, name := range p.RequiredChecks {
			checks = append(checks, name)
		}
		if len(checks) > 0 {
			level = "non_admins"
		}
	}
	return http.StatusOK, shapes.Obj{
		"name": b.Name, "protected": p != nil, "protection_url": api + "/protection",
		"protection": shapes.Obj{"enabled": p != nil, "required_status_checks": shapes.Obj{"enforcement_level": level, "contexts": checks}},
		"commit":     shapes.Obj{"sha": b.Head, "url": s.APIURL("/repos/%s/commits/%s", fn, b.Head)},
		"_links":     shapes.Obj{"self": api, "html": fmt.Sprintf("%s/%s/tree/%s", shapes.HTMLBase, fn, b.Name)},
	}
}

// reposGetBranchRules: https://docs.github.com/rest/repos/rules#get-rules-for-a-branch. The
// fake's rulesets are repository rulesets without bypass (RestrictBranch); one page holds them.
func reposGetBranchRules(s *Env, c *restCtx) (int, any) {
	return http.StatusOK, c.repo.BranchRules(c.params["branch"])
}

// reposGetContent: https://docs.github.com/rest/repos/contents#get-repository-content (files
// only; ?ref= names a branch, the default branch by default).
func reposGetContent(s *Env, c *restCtx) (int, any) {
	ref := c.r.URL.Query().Get("ref")
	if ref == "" {
		ref = c.repo.DefaultBranch
	}
	b := c.repo.Branches[strings.TrimPrefix(ref, "refs/heads/")]
	if b == nil {
		return http.StatusNotFound, ErrorBody("No commit found for the ref " + ref)
	}
	p := c.params["path"]
	bl := b.Files[p]
	if bl == nil {
		return http.StatusNotFound, NotFound()
	}
	fn := c.repo.FullName()
	self := s.APIURL("/repos/%s/contents/%s?ref=%s", fn, p, b.Name)
	git := s.APIURL("/repos/%s/git/blobs/%s", fn, bl.OID)
	html := fmt.Sprintf("%s/%s/blob/%s/%s", shapes.HTMLBase, fn, b.Name, p)
	return http.StatusOK, shapes.Obj{
		"type": "file", "encoding": "base64", "size": len(bl.Text), "name": path.Base(p), "path": p,
		"content": base64.StdEncoding.EncodeToString([]byte(bl.Text)), "sha": bl.OID, "url": self,
		"git_url": git, "html_url": html,
		"download_url": fmt.Sprintf("https://raw.githubusercontent.com/%s/%s/%s", fn, b.Name, p),
		"_links":       shapes.Obj{"self": self, "git": git, "html": html},
	}
}
