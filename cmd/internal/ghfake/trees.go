package ghfake

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// tree is a git tree: a directory of a branch's files. Branches hold their files flat, so trees
// are built when GraphQL asks for one; each is kept by its OID, as git keeps every tree it had,
// so that a tree read once can be read again by OID after the branch moved on.
type tree struct {
	oid     string
	entries []treeEntry
}

// treeEntry is one name in a tree: a file (blob) or a directory (tree).
type treeEntry struct {
	name, path string
	obj        any // *blob or *tree
}

// Git's modes, as GraphQL's TreeEntry.mode gives them (decimal of the octal mode).
const (
	modeFile = 0o100644
	modeDir  = 0o040000
)

func (e treeEntry) typ() string {
	if _, ok := e.obj.(*tree); ok {
		return "tree"
	}
	return "blob"
}

func (e treeEntry) mode() int {
	if _, ok := e.obj.(*tree); ok {
		return modeDir
	}
	return modeFile
}

func (e treeEntry) oid() string {
	if t, ok := e.obj.(*tree); ok {
		return t.oid
	}
	return e.obj.(*blob).oid
}

// treeAt returns the tree of directory dir ("" for the root) in files, or nil when no file lies
// under it. It records the tree and its subtrees in r.trees. The caller holds s.mu.
func (r *repo) treeAt(files map[string]*blob, dir string) *tree {
	dir = strings.Trim(dir, "/")
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	blobs := map[string]*blob{}
	subdirs := map[string]bool{}
	for p, bl := range files {
		rel, ok := strings.CutPrefix(p, prefix)
		if !ok || rel == "" {
			continue
		}
		if name, _, sub := strings.Cut(rel, "/"); sub {
			subdirs[name] = true
		} else {
			blobs[name] = bl
		}
	}
	if len(blobs) == 0 && len(subdirs) == 0 {
		return nil
	}
	t := &tree{}
	for name, bl := range blobs {
		t.entries = append(t.entries, treeEntry{name: name, path: prefix + name, obj: bl})
	}
	for name := range subdirs {
		if sub := r.treeAt(files, prefix+name); sub != nil {
			t.entries = append(t.entries, treeEntry{name: name, path: prefix + name, obj: sub})
		}
	}
	// Git orders entries by name, a directory's name compared as if it ended in "/".
	key := func(e treeEntry) string {
		if e.typ() == "tree" {
			return e.name + "/"
		}
		return e.name
	}
	sort.Slice(t.entries, func(i, j int) bool { return key(t.entries[i]) < key(t.entries[j]) })
	t.oid = treeOID(t.entries)
	if r.trees == nil {
		r.trees = map[string]*tree{}
	}
	if old := r.trees[t.oid]; old != nil {
		return old
	}
	r.trees[t.oid] = t
	return t
}

// treeOID is git's OID of a tree: sha1 of "tree <len>\x00" and, per entry, "<octal mode> <name>\x00"
// followed by the entry's raw 20-byte OID.
func treeOID(entries []treeEntry) string {
	var body []byte
	for _, e := range entries {
		raw, err := hex.DecodeString(e.oid())
		if err != nil || len(raw) != sha1.Size {
			panic(fmt.Sprintf("ghfake: entry %s has OID %q", e.path, e.oid()))
		}
		body = fmt.Appendf(body, "%o %s\x00", e.mode(), e.name)
		body = append(body, raw...)
	}
	h := sha1.New()
	fmt.Fprintf(h, "tree %d\x00", len(body))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func treeResolvers() {
	on("Tree", map[string]resolver{
		"oid":            value(func(t *tree) any { return t.oid }),
		"id":             value(func(t *tree) any { return nodeID("Tree", stableID(t.oid)) }),
		"abbreviatedOid": value(func(t *tree) any { return t.oid[:7] }),
		"entries":        value(func(t *tree) any { return t.entries }),
	})
	on("TreeEntry", map[string]resolver{
		"name":   value(func(e treeEntry) any { return e.name }),
		"path":   value(func(e treeEntry) any { return e.path }),
		"type":   value(func(e treeEntry) any { return e.typ() }),
		"mode":   value(func(e treeEntry) any { return e.mode() }),
		"oid":    value(func(e treeEntry) any { return e.oid() }),
		"object": value(func(e treeEntry) any { return e.obj }),
	})
}
