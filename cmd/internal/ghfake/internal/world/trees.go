package world

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// Tree is a git tree: a directory of a branch's files. Branches hold their files flat, so trees
// are built when GraphQL asks for one; each is kept by its OID, as git keeps every tree it had,
// so that a tree read once can be read again by OID after the branch moved on.
type Tree struct {
	OID     string
	Entries []TreeEntry
}

// TreeEntry is one name in a tree: a file (blob) or a directory (tree).
type TreeEntry struct {
	Name, Path string
	Obj        any // *blob or *tree
}

// Git's modes, as GraphQL's TreeEntry.mode gives them (decimal of the octal mode).
const (
	ModeFile = 0o100644
	ModeDir  = 0o040000
)

func (e TreeEntry) Type() string {
	if _, ok := e.Obj.(*Tree); ok {
		return "tree"
	}
	return "blob"
}

func (e TreeEntry) Mode() int {
	if _, ok := e.Obj.(*Tree); ok {
		return ModeDir
	}
	return ModeFile
}

func (e TreeEntry) OID() string {
	if t, ok := e.Obj.(*Tree); ok {
		return t.OID
	}
	return e.Obj.(*Blob).OID
}

// TreeAt returns the tree of directory dir ("" for the root) in files, or nil when no file lies
// under it. It records the tree and its subtrees in r.trees. The caller holds Mu.
func (r *Repo) TreeAt(files map[string]*Blob, dir string) *Tree {
	dir = strings.Trim(dir, "/")
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	blobs := map[string]*Blob{}
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
	t := &Tree{}
	for name, bl := range blobs {
		t.Entries = append(t.Entries, TreeEntry{Name: name, Path: prefix + name, Obj: bl})
	}
	for name := range subdirs {
		if sub := r.TreeAt(files, prefix+name); sub != nil {
			t.Entries = append(t.Entries, TreeEntry{Name: name, Path: prefix + name, Obj: sub})
		}
	}
	// Git orders entries by name, a directory's name compared as if it ended in "/".
	key := func(e TreeEntry) string {
		if e.Type() == "tree" {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(t.Entries, func(i, j int) bool { return key(t.Entries[i]) < key(t.Entries[j]) })
	t.OID = TreeOID(t.Entries)
	if r.Trees == nil {
		r.Trees = map[string]*Tree{}
	}
	if old := r.Trees[t.OID]; old != nil {
		return old
	}
	r.Trees[t.OID] = t
	return t
}

// TreeOID is git's OID of a tree: sha1 of "tree <len>\x00" and, per entry, "<octal mode> <name>\x00"
// followed by the entry's raw 20-byte OID.
func TreeOID(entries []TreeEntry) string {
	var body []byte
	for _, e := range entries {
		raw, err := hex.DecodeString(e.OID())
		if err != nil || len(raw) != sha1.Size {
			panic(fmt.Sprintf("ghfake: entry %s has OID %q", e.Path, e.OID()))
		}
		body = fmt.Appendf(body, "%o %s\x00", e.Mode(), e.Name)
		body = append(body, raw...)
	}
	h := sha1.New()
	fmt.Fprintf(h, "tree %d\x00", len(body))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}
