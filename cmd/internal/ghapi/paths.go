package ghapi

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine/lang"
)

// MaxPathPatterns bounds the paths one PathsAt reads (one object of the repository each).
const MaxPathPatterns = 50

// MaxGlobDepth bounds how many directories below a pattern's literal prefix PathsAt reads for
// a pattern with wildcards (`src/**/auth/*.go` reads src to that depth). A `**` that could
// match deeper than what was read, where nothing read matched, leaves the pattern unread: its
// check then fails closed rather than say the path is missing.
const MaxGlobDepth = 8

// GlobPrefix splits a pattern into its literal prefix (the leading segments without a
// wildcard, "" for none) and the depth of directories below it that the rest can reach: the
// number of remaining segments, or -1 when one of them is `**` (any depth). A path without
// wildcards is all prefix (depth 0).
func GlobPrefix(pattern string) (prefix string, depth int) {
	segs := strings.Split(pattern, "/")
	for i, seg := range segs {
		if strings.ContainsAny(seg, "*?[\\") {
			for _, rest := range segs[i:] {
				if rest == "**" {
					return strings.Join(segs[:i], "/"), -1
				}
			}
			return strings.Join(segs[:i], "/"), len(segs) - i
		}
	}
	return pattern, 0
}

// PathsAt reports, for each pattern, whether commit sha holds a file or directory there: a
// path names itself; a pattern with wildcards (lang.MatchGlob: `docs/*.md`,
// `src/**/auth/*.go`) matches some entry under its literal prefix, read to the depth the
// pattern reaches (at most MaxGlobDepth directories). All are read in one GraphQL query, an
// object expression "<sha>:<prefix>" each. A pattern that could not be read wholly (a `**`
// below the depth read, with no match above it) is left out of the result.
// https://docs.github.com/en/graphql/reference/objects#repository (object)
func (c *Client) PathsAt(ctx context.Context, sha string, patterns []string) (map[string]bool, error) {
	if len(patterns) == 0 {
		return map[string]bool{}, nil
	}
	if len(patterns) > MaxPathPatterns {
		return nil, fmt.Errorf("reading %d paths at %s: at most %d are read", len(patterns), sha, MaxPathPatterns)
	}
	q, vars, levels, err := pathsQuery(c.Owner, c.Repo, sha, patterns)
	if err != nil {
		return nil, err
	}
	if err := c.gql.Query(ctx, q.Interface(), vars); err != nil {
		return nil, fmt.Errorf("reading paths at %s in %s/%s: %w", sha, c.Owner, c.Repo, err)
	}
	repo := q.Elem().Field(0)
	out := make(map[string]bool, len(patterns))
	for i, key := range patterns {
		found, known, err := pathFound(strings.Trim(key, "/"), repo.Field(i), levels[i]) // "docs/" is the directory docs
		if err != nil {
			return nil, fmt.Errorf("reading paths at %s: %w", sha, err)
		}
		if known {
			out[key] = found
		}
	}
	return out, nil
}

// pathsQuery builds the query PathsAt sends: for pattern i, field Pi reads the object
// at its literal prefix in commit sha, with the tree below it levels[i] directories deep.
func pathsQuery(owner, repo, sha string, patterns []string) (q reflect.Value, vars map[string]any, levels []int, err error) {
	vars = map[string]any{"owner": githubv4.String(owner), "name": githubv4.String(repo)}
	fields := make([]reflect.StructField, len(patterns))
	levels = make([]int, len(patterns))
	for i, p := range patterns {
		if err := lang.ValidGlob(strings.Trim(p, "/")); err != nil {
			return reflect.Value{}, nil, nil, fmt.Errorf("pattern %q: %v", p, err)
		}
		prefix, depth := GlobPrefix(strings.Trim(p, "/"))
		switch {
		case depth < 0 || depth > MaxGlobDepth:
			levels[i] = MaxGlobDepth
		default:
			levels[i] = depth
		}
		v := fmt.Sprintf("e%d", i)
		vars[v] = githubv4.String(sha + ":" + prefix)
		fields[i] = reflect.StructField{Name: fmt.Sprintf("P%d", i), Type: reflect.PointerTo(pathObjectType(levels[i])),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"p%d: object(expression: $%s)"`, i, v))}
	}
	repoType := reflect.StructOf(fields)
	q = reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Repository", Type: repoType,
		Tag: repoTag}}))
	return q, vars, levels, nil
}

// pathFound says whether the object field read for pattern p, with levels directories
// of its tree, holds a path p matches; known is false when a match could lie in a
// directory deeper than was read.
func pathFound(p string, field reflect.Value, levels int) (found, known bool, err error) {
	if field.IsNil() {
		return false, true, nil
	}
	prefix, depth := GlobPrefix(p)
	if depth == 0 {
		return true, true, nil
	}
	// The object read, as plain data: its typename and its tree's entries, nested.
	raw, err := json.Marshal(field.Interface())
	if err != nil {
		return false, false, err
	}
	var obj struct {
		Typename string
		Tree     struct{ Entries []pathEntry }
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return false, false, err
	}
	if obj.Typename != "Tree" {
		return false, true, nil // the prefix is a file: nothing lies under it
	}
	if prefix != "" && lang.MatchGlob(p, prefix) { // `src/**` matches src itself
		return true, true, nil
	}
	found, cut := matchEntries(p, prefix, obj.Tree.Entries, 1, levels)
	return found, found || !cut || (depth > 0 && depth <= levels), nil
}

// matchEntries says whether an entry of directory dir, or of the directories below it
// read down to level levels, matches p; cut says a directory whose entries were not
// read was passed over.
func matchEntries(p, dir string, entries []pathEntry, level, levels int) (found, cut bool) {
	for _, e := range entries {
		full := e.Name
		if dir != "" {
			full = dir + "/" + e.Name
		}
		if lang.MatchGlob(p, full) {
			return true, cut
		}
		if e.Type != "tree" {
			continue
		}
		if level == levels {
			cut = true // a directory whose entries were not read
			continue
		}
		if e.Object != nil {
			f, c := matchEntries(p, full, e.Object.Tree.Entries, level+1, levels)
			cut = cut || c
			if f {
				return true, cut
			}
		}
	}
	return false, cut
}

// pathEntry is an entry of a tree as PathsAt reads it, with a directory's own entries when
// they were read.
type pathEntry struct {
	Name   string
	Type   string
	Object *struct{ Tree struct{ Entries []pathEntry } }
}

// pathObjectType is the shape PathsAt reads of one object: its type, and a tree's entries
// (name and type) to levels deep, each directory's entries nested in it.
func pathObjectType(levels int) reflect.Type {
	str := reflect.TypeOf("")
	if levels == 0 {
		return reflect.StructOf([]reflect.StructField{{Name: "Typename", Type: str, Tag: `graphql:"__typename"`}})
	}
	var entries reflect.Type // []entry of the deepest level read
	for l := 1; l <= levels; l++ {
		fields := []reflect.StructField{{Name: "Name", Type: str}, {Name: "Type", Type: str}}
		if entries != nil {
			tree := reflect.StructOf([]reflect.StructField{{Name: "Entries", Type: entries}})
			obj := reflect.StructOf([]reflect.StructField{{Name: "Tree", Type: tree, Tag: `graphql:"... on Tree"`}})
			fields = append(fields, reflect.StructField{Name: "Object", Type: reflect.PointerTo(obj)})
		}
		entries = reflect.SliceOf(reflect.StructOf(fields))
	}
	tree := reflect.StructOf([]reflect.StructField{{Name: "Entries", Type: entries}})
	return reflect.StructOf([]reflect.StructField{
		{Name: "Typename", Type: str, Tag: `graphql:"__typename"`},
		{Name: "Tree", Type: tree, Tag: `graphql:"... on Tree"`},
	})
}
