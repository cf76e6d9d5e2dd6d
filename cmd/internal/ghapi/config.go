package ghapi

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/shurcooL/githubv4"
)

// Config is the pipeline config on the default branch: the file at the config path
// (".github/pipelines.yaml") and the *.yaml files of the directory of the same name
// (".github/pipelines/"), which load together as `validate` loads them.
type Config struct {
	// ID is what a run pins of the config it started under (lang.Config.BlobOID). A
	// config of the file alone is identified by its blob OID, so the runs of states written
	// by versions that read only the file keep their config. With files of the
	// directory it is "<blob OID>+tree:<tree OID>" ("tree:<tree OID>" without the file):
	// git objects either way, so ConfigByID reads the same files back. The directory's
	// tree covers every file in it, so a change to a file that is not part of the config
	// (a README there) gives a new ID for the same config: harmless, runs then read back
	// what they started under.
	ID    string
	Files []ConfigFile // in path order
}

// ConfigFile is one file of a Config.
type ConfigFile struct {
	Path string
	Blob
}

// ConfigDir is the directory whose *.yaml files belong to the config at configPath:
// the path without its extension (".github/pipelines" for ".github/pipelines.yaml"),
// or "" when the path has none.
func ConfigDir(configPath string) string {
	ext := path.Ext(configPath)
	if ext == "" || strings.HasSuffix(configPath, "/"+ext) {
		return ""
	}
	return strings.TrimSuffix(configPath, ext)
}

type blobFields struct {
	Oid         string
	Text        *string
	IsTruncated bool
}

type treeEntryNode struct {
	Name   string
	Type   string
	Mode   int
	Object *struct {
		Blob blobFields `graphql:"... on Blob"`
	}
}

type treeFields struct {
	Oid     string
	Entries []treeEntryNode
}

// modeSymlink is git's mode of a symbolic link (GraphQL gives it in decimal).
const modeSymlink = 0o120000

func (b blobFields) blob() Blob {
	out := Blob{OID: b.Oid, Truncated: b.IsTruncated}
	if b.Text != nil {
		out.Text = *b.Text
	}
	return out
}

// newConfig assembles the config from the file at configPath (nil or without an OID
// when absent) and the tree of its directory (likewise). It is nil when neither holds a
// config file.
func newConfig(configPath string, file *blobFields, dir *treeFields) (*Config, error) {
	c := &Config{}
	var id []string
	if file != nil && file.Oid != "" {
		c.Files = append(c.Files, ConfigFile{Path: configPath, Blob: file.blob()})
		id = append(id, file.Oid)
	}
	if d := ConfigDir(configPath); d != "" && dir != nil && dir.Oid != "" {
		n := 0
		for _, e := range dir.Entries {
			if e.Type != "blob" {
				continue // directories and submodules: validate does not descend either
			}
			if ok, _ := path.Match("*.yaml", e.Name); !ok {
				continue
			}
			p := d + "/" + e.Name
			if e.Mode == modeSymlink {
				return nil, fmt.Errorf("%s is a symbolic link; config files must be regular files", p)
			}
			if e.Object == nil || e.Object.Blob.Oid == "" {
				return nil, fmt.Errorf("%s could not be read", p)
			}
			c.Files = append(c.Files, ConfigFile{Path: p, Blob: e.Object.Blob.blob()})
			n++
		}
		if n > 0 {
			id = append(id, "tree:"+dir.Oid)
		}
	}
	if len(c.Files) == 0 {
		return nil, nil
	}
	sort.Slice(c.Files, func(i, j int) bool { return c.Files[i].Path < c.Files[j].Path })
	c.ID = strings.Join(id, "+")
	return c, nil
}

var gitOID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`) })

// parseConfigID splits a Config.ID into its blob and tree OIDs ("" when absent); ok is
// false when id is not of the forms Config.ID has.
func parseConfigID(id string) (blobOID, treeOID string, ok bool) {
	for _, part := range strings.Split(id, "+") {
		if t, isTree := strings.CutPrefix(part, "tree:"); isTree && treeOID == "" && gitOID().MatchString(t) {
			treeOID = t
		} else if !isTree && blobOID == "" && treeOID == "" && gitOID().MatchString(part) {
			blobOID = part
		} else {
			return "", "", false
		}
	}
	return blobOID, treeOID, true
}

// fileVersions and dirVersions list the versions of the config file and of its directory on
// the default branch: the file (the directory: a tree entry whose oid is its tree's) at each
// commit that changed it, newest first.
type fileVersions struct {
	Nodes []struct {
		File *struct{ Oid string } `graphql:"file(path: $filePath)"`
	}
}

type dirVersions struct {
	Nodes []struct {
		File *struct{ Oid string } `graphql:"file(path: $dirPath)"`
	}
}

type configByIDQuery inRepo[struct {
	File *struct {
		Blob blobFields `graphql:"... on Blob"`
	} `graphql:"file: object(oid: $file)"`
	Dir *struct {
		Tree treeFields `graphql:"... on Tree"`
	} `graphql:"dir: object(oid: $dir)"`
	DefaultBranchRef *struct {
		Target struct {
			Commit struct {
				FileVersions fileVersions `graphql:"fileVersions: history(first: 100, path: $filePath)"`
				DirVersions  dirVersions  `graphql:"dirVersions: history(first: 100, path: $dirPath)"`
			} `graphql:"... on Commit"`
		}
	}
}]

// ConfigByID reads back the config a run pinned (Config.ID), in one query: the config a run
// started under, when the default branch has moved on since. The ID comes from stored state,
// which must never choose a config: it is taken only when its blob is a version of the config
// file on the default branch, and its tree a version of the config directory there (among
// the last 100 commits that changed each), so an object that exists only on a pull request's
// branch, or a fork's, is never a config. Nil when id names no config, names one that is not
// such a version, or the repository no longer has one of its objects; an error only when
// GitHub could not be asked.
// https://docs.github.com/en/graphql/reference/objects#commit
func (c *Client) ConfigByID(ctx context.Context, id, configPath string) (*Config, error) {
	blobOID, treeOID, ok := parseConfigID(id)
	if !ok {
		return nil, nil
	}
	dirPath := ConfigDir(configPath)
	if treeOID != "" && dirPath == "" {
		return nil, nil // a path without a directory never pins a tree
	}
	if dirPath == "" {
		dirPath = configPath // asked again, and not used
	}
	// Both object variables are required: a part that is absent asks for the other object
	// again, and the fragment of the wrong type reads nothing.
	fileVar, dirVar := blobOID, treeOID
	if fileVar == "" {
		fileVar = treeOID
	}
	if dirVar == "" {
		dirVar = blobOID
	}
	var q configByIDQuery
	vars := map[string]any{
		"owner":    githubv4.String(c.Owner),
		"name":     githubv4.String(c.Repo),
		"file":     githubv4.GitObjectID(fileVar),
		"dir":      githubv4.GitObjectID(dirVar),
		"filePath": githubv4.String(configPath),
		"dirPath":  githubv4.String(dirPath),
	}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("reading config %s in %s/%s: %w", id, c.Owner, c.Repo, err)
	}
	ref := q.Repository.DefaultBranchRef
	if ref == nil {
		return nil, nil // an empty repository has no config
	}
	var files, dirs []string
	for _, n := range ref.Target.Commit.FileVersions.Nodes {
		if n.File != nil {
			files = append(files, n.File.Oid)
		}
	}
	for _, n := range ref.Target.Commit.DirVersions.Nodes {
		if n.File != nil {
			dirs = append(dirs, n.File.Oid)
		}
	}
	if blobOID != "" && !slices.Contains(files, blobOID) || treeOID != "" && !slices.Contains(dirs, treeOID) {
		return nil, nil // not a version of the config on the default branch
	}
	var file *blobFields
	if blobOID != "" {
		if q.Repository.File == nil || q.Repository.File.Blob.Oid != blobOID {
			return nil, nil
		}
		file = &q.Repository.File.Blob
	}
	var dir *treeFields
	if treeOID != "" {
		if q.Repository.Dir == nil || q.Repository.Dir.Tree.Oid != treeOID {
			return nil, nil
		}
		dir = &q.Repository.Dir.Tree
	}
	cfg, err := newConfig(configPath, file, dir)
	if err != nil || cfg == nil || cfg.ID != id {
		return nil, nil // not a config this action would have pinned
	}
	return cfg, nil
}
