package ghapi

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/shurcooL/githubv4"
)

// MaxPathPatterns bounds the paths one PathsAt reads (one object of the repository each).
const MaxPathPatterns = 50

// pathObject is what PathsAt reads of one object: its type, and a tree's entries.
type pathObject struct {
	Typename string `graphql:"__typename"`
	Tree     struct {
		Entries []struct {
			Name string
			Type string
		}
	} `graphql:"... on Tree"`
}

// GlobDir splits pattern into its directory and the pattern of names in it, when only its last
// segment holds a wildcard (`docs/*.md`); ok is false for a pattern with a wildcard in a
// directory or `**`, which PathsAt does not read.
func GlobDir(pattern string) (dir, name string, glob, ok bool) {
	if !strings.ContainsAny(pattern, "*?[") {
		return "", pattern, false, true
	}
	if strings.Contains(pattern, "**") {
		return "", "", true, false
	}
	i := strings.LastIndex(pattern, "/")
	dir, name = "", pattern
	if i >= 0 {
		dir, name = pattern[:i], pattern[i+1:]
	}
	if strings.ContainsAny(dir, "*?[") {
		return "", "", true, false
	}
	if _, err := path.Match(name, ""); err != nil {
		return "", "", true, false
	}
	return dir, name, true, true
}

// PathsAt reports, for each pattern, whether commit sha holds a file or directory there: a
// path names itself; a pattern whose last segment holds wildcards (`docs/*.md`) matches the
// entries of its directory. All are read in one GraphQL query, an object expression
// "<sha>:<path>" each.
// https://docs.github.com/en/graphql/reference/objects#repository (object)
func (c *Client) PathsAt(ctx context.Context, sha string, patterns []string) (map[string]bool, error) {
	if len(patterns) == 0 {
		return map[string]bool{}, nil
	}
	if len(patterns) > MaxPathPatterns {
		return nil, fmt.Errorf("reading %d paths at %s: at most %d are read", len(patterns), sha, MaxPathPatterns)
	}
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo)}
	fields := make([]reflect.StructField, len(patterns))
	for i, p := range patterns {
		dir, _, glob, ok := GlobDir(p)
		if !ok {
			return nil, fmt.Errorf("pattern %q: only the last segment of a path may hold wildcards", p)
		}
		target := strings.Trim(p, "/")
		if glob {
			target = dir
		}
		v := fmt.Sprintf("e%d", i)
		vars[v] = githubv4.String(sha + ":" + target)
		fields[i] = reflect.StructField{Name: fmt.Sprintf("P%d", i), Type: reflect.TypeOf((*pathObject)(nil)),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"p%d: object(expression: $%s)"`, i, v))}
	}
	repoType := reflect.StructOf(fields)
	q := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Repository", Type: repoType,
		Tag: `graphql:"repository(owner: $owner, name: $name)"`}}))
	if err := c.gql.Query(ctx, q.Interface(), vars); err != nil {
		return nil, fmt.Errorf("reading paths at %s in %s/%s: %w", sha, c.Owner, c.Repo, err)
	}
	repo := q.Elem().Field(0)
	out := make(map[string]bool, len(patterns))
	for i, p := range patterns {
		obj, _ := repo.Field(i).Interface().(*pathObject)
		_, name, glob, _ := GlobDir(p)
		switch {
		case obj == nil:
			out[p] = false
		case !glob:
			out[p] = true
		default:
			for _, e := range obj.Tree.Entries {
				if m, _ := path.Match(name, e.Name); m {
					out[p] = true
					break
				}
			}
			if _, ok := out[p]; !ok {
				out[p] = false
			}
		}
	}
	return out, nil
}
