package graphql

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Values the resolvers pass around besides the world's own structs.
type (
	actor string // a REST login; GraphQL spells a bot's login without "[bot]"
	label struct {
		repo *world.Repo
		name string
	}
	ref struct {
		repo *world.Repo
		name string
	} // a branch
	rollup   struct{ c *world.Commit }
	app      string                         // a GitHub App, by its slug
	wfRun    struct{ cs *world.CheckSuite } // the workflow run an Actions check suite is
	workflow struct {
		repo *world.Repo
		name string
	}
	prCommit struct{ c *world.Commit }
	prFile   struct{ path string }
)

// value is a resolver that ignores arguments.
func value[T any](f func(p T) any) resolver {
	return func(_ *executor, p any, _ map[string]any) (any, error) { return f(p.(T)), nil }
}

func gqlTime(t time.Time) any { return shapes.TS(t) }

func queryResolvers() {
	on("Query", map[string]resolver{
		"viewer": func(e *executor, _ any, _ map[string]any) (any, error) { return actor(e.login), nil },
		"rateLimit": func(e *executor, _ any, _ map[string]any) (any, error) {
			return rateLimit{used: e.s.Counts()["graphql"]}, nil
		},
		"repository": func(e *executor, _ any, a map[string]any) (any, error) {
			name := strArg(a, "owner") + "/" + strArg(a, "name")
			if r := e.s.Repos[name]; r != nil && e.s.Reaches(e.login, name) {
				return r, nil
			}
			return nil, fmt.Errorf("Could not resolve to a Repository with the name '%s'.", name)
		},
		// node serves the objects findNode knows (a comment, an issue, a pull request, a
		// repository, a branch's ref), as GitHub does for a token that may read them.
		"node": func(e *executor, _ any, a map[string]any) (any, error) {
			id := strArg(a, "id")
			if n := e.s.findNode(id); n != nil && e.s.nodeReachable(e.login, n) {
				return n, nil
			}
			return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
		},
	})
	on("RateLimit", map[string]resolver{
		"cost":      value(func(rateLimit) any { return 1 }),
		"limit":     value(func(rateLimit) any { return 5000 }),
		"nodeCount": value(func(rateLimit) any { return 1 }),
		"used":      value(func(r rateLimit) any { return r.used }),
		"remaining": value(func(r rateLimit) any { return 5000 - r.used }),
		"resetAt":   value(func(rateLimit) any { return gqlTime(shapes.TimeZero.Add(100 * 365 * 24 * time.Hour)) }),
	})
	for _, typ := range []string{"User", "Bot", "Actor"} {
		login := func(a actor) any { return strings.TrimSuffix(string(a), "[bot]") }
		if typ == "User" {
			// A field of type User (viewer) holding an app's identity spells its login as
			// REST does: an installation token's viewer is "github-actions[bot]", while
			// the same account as an Actor (a comment's author) is the Bot "github-actions".
			login = func(a actor) any { return string(a) }
		}
		on(typ, map[string]resolver{
			"login":      value(login),
			"id":         value(func(a actor) any { return world.NodeID(typeOf(a), world.StableID(string(a))) }),
			"databaseId": value(func(a actor) any { return world.StableID(string(a)) }),
			"url":        value(func(a actor) any { return shapes.HTMLBase + "/" + strings.TrimSuffix(string(a), "[bot]") }),
		})
	}
}

// repositoryResolvers serve a repository, its refs and its blobs.
func repositoryResolvers() {
	on("Repository", map[string]resolver{
		"id":               value(func(r *world.Repo) any { return world.NodeID("Repository", r.ID) }),
		"databaseId":       value(func(r *world.Repo) any { return r.ID }),
		"name":             value(func(r *world.Repo) any { return r.Name }),
		"nameWithOwner":    value(func(r *world.Repo) any { return r.FullName() }),
		"owner":            value(func(r *world.Repo) any { return actor(r.Owner) }),
		"url":              value(func(r *world.Repo) any { return shapes.HTMLBase + "/" + r.FullName() }),
		"isPrivate":        value(func(r *world.Repo) any { return false }),
		"defaultBranchRef": value(func(r *world.Repo) any { return ref{r, r.DefaultBranch} }),
		"object":           repoObject,
		"ref": func(_ *executor, p any, a map[string]any) (any, error) {
			r := p.(*world.Repo)
			name := strings.TrimPrefix(strArg(a, "qualifiedName"), "refs/heads/")
			if r.Branches[name] == nil {
				return nil, nil
			}
			return ref{r, name}, nil
		},
		"pullRequest": func(_ *executor, p any, a map[string]any) (any, error) {
			r := p.(*world.Repo)
			n, _ := intArg(a, "number")
			if is := r.Issues[n]; is != nil && is.IsPR {
				return is, nil
			}
			return nil, fmt.Errorf("Could not resolve to a PullRequest with the number of %d.", n)
		},
		"issue": func(_ *executor, p any, a map[string]any) (any, error) {
			r := p.(*world.Repo)
			n, _ := intArg(a, "number")
			if is := r.Issues[n]; is != nil && !is.IsPR {
				return is, nil
			}
			return nil, fmt.Errorf("Could not resolve to an Issue with the number of %d.", n)
		},
		"issueOrPullRequest": func(_ *executor, p any, a map[string]any) (any, error) {
			r := p.(*world.Repo)
			n, _ := intArg(a, "number")
			if is := r.Issues[n]; is != nil {
				return is, nil
			}
			return nil, fmt.Errorf("Could not resolve to an issue or pull request with the number of %d.", n)
		},
	})
	on("Ref", map[string]resolver{
		"id":     value(func(r ref) any { return world.RefNodeID(r.repo, r.name) }),
		"name":   value(func(r ref) any { return r.name }),
		"prefix": value(func(r ref) any { return "refs/heads/" }),
		"target": value(func(r ref) any {
			if b := r.repo.Branches[r.name]; b != nil {
				return r.repo.Commits[b.Head]
			}
			return nil // deleted since
		}),
	})
	on("Blob", map[string]resolver{
		"oid":            value(func(b *world.Blob) any { return b.OID }),
		"id":             value(func(b *world.Blob) any { return world.NodeID("Blob", world.StableID(b.OID)) }),
		"text":           value(func(b *world.Blob) any { t, _ := world.BlobText(b); return t }),
		"byteSize":       value(func(b *world.Blob) any { return len(b.Text) }),
		"isTruncated":    value(func(b *world.Blob) any { _, cut := world.BlobText(b); return cut }),
		"isBinary":       value(func(b *world.Blob) any { return false }),
		"abbreviatedOid": value(func(b *world.Blob) any { return b.OID[:7] }),
	})
}

// rateLimit is the GraphQL rate limit; used counts the GraphQL requests so far.
type rateLimit struct{ used int }

// repoObject is Repository.object: by oid (a blob, tree or commit), or by expression
// "<branch>:<path>" (the blob or the tree (a directory) at path, null when absent; "<branch>:"
// is the root tree) or "<branch>" (its head commit).
func repoObject(_ *executor, p any, a map[string]any) (any, error) {
	r := p.(*world.Repo)
	if oid := strArg(a, "oid"); oid != "" {
		if b := r.Blobs[oid]; b != nil {
			return b, nil
		}
		if t := r.Trees[oid]; t != nil {
			return t, nil
		}
		if c := r.Commits[oid]; c != nil {
			return c, nil
		}
		return nil, nil
	}
	expr := strArg(a, "expression")
	rev, path, hasPath := strings.Cut(expr, ":")
	if rev == "" || rev == "HEAD" {
		rev = r.DefaultBranch
	}
	var files map[string]*world.Blob
	if b := r.Branches[strings.TrimPrefix(rev, "refs/heads/")]; b != nil {
		if !hasPath {
			return r.Commits[b.Head], nil
		}
		files = b.Files
	} else if c := r.Commits[rev]; c != nil {
		if !hasPath {
			return c, nil
		}
		files = c.Files // <commit sha>:<path>, the files at that commit
	} else {
		return nil, nil
	}
	path = strings.Trim(path, "/")
	if bl := files[path]; bl != nil {
		return bl, nil
	}
	if t := r.TreeAt(files, path); t != nil {
		return t, nil
	}
	return nil, nil
}
