package ghapi

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

// Every subject's trail (the stats command) is read in 1 + ⌈subjects / TrailsBatch⌉
// GraphQL queries. The first lists the state branch's subjects (the names at its root,
// under audit/ and under archive/) with its head commit, and reads the config on the
// default branch; each of the others reads, at that head commit, the files of up to
// TrailsBatch subjects, three aliases a subject:
//
//	object(oid: $head) { ... on Commit {
//	  f0: file(path: $f0) { … }  a0: file(path: $a0) { … }  r0: file(path: $r0) { … }
//	  …
//	} }

// TrailsBatch is how many subjects one query reads.
const TrailsBatch = 25

// Trails is what the stats command reads: the config and every subject's trail.
type Trails struct {
	Exists   bool
	Head     string
	Config   *Config                    // nil when the default branch has none
	Subjects map[string]state.AuditRead // by subject file (pr-7.json)
	Queries  int                        // the GraphQL queries it took
}

type nameEntry struct {
	Name string
	Type string
}

type nameDir struct {
	Object *struct {
		Tree struct{ Entries []nameEntry } `graphql:"... on Tree"`
	}
}

type trailsListQuery struct {
	Repository struct {
		Config *struct {
			Blob blobFields `graphql:"... on Blob"`
		} `graphql:"config: object(expression: $configExpr)"`
		ConfigDir *struct {
			Tree treeFields `graphql:"... on Tree"`
		} `graphql:"configDir: object(expression: $configDirExpr)"`
		Root *struct {
			Tree struct{ Entries []nameEntry } `graphql:"... on Tree"`
		} `graphql:"stateRoot: object(expression: $stateRoot)"`
		Ref *struct {
			Target *struct {
				Oid    string
				Commit struct {
					Audit   *nameDir `graphql:"audit: file(path: $auditRoot)"`
					Archive *nameDir `graphql:"archive: file(path: $archiveRoot)"`
				} `graphql:"... on Commit"`
			}
		} `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

var subjectFileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(pr|issue)-[1-9][0-9]*$`) })

// ReadTrails reads the config at HEAD:configPath (with its directory's *.yaml) and every
// subject's file, audit parts and archived runs on branch. Exists is false when there
// is no such branch.
func (c *Client) ReadTrails(ctx context.Context, branch, configPath string) (Trails, error) {
	dirExpr := "HEAD:" + ConfigDir(configPath)
	if ConfigDir(configPath) == "" {
		dirExpr = "HEAD:" + configPath
	}
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
		"configExpr": githubv4.String("HEAD:" + configPath), "configDirExpr": githubv4.String(dirExpr),
		"stateRoot": githubv4.String(branch + ":"), "stateRef": githubv4.String("refs/heads/" + branch),
		"auditRoot": githubv4.String(path.Dir(state.AuditDir("pr-1.json"))), "archiveRoot": githubv4.String(path.Dir(state.ArchiveDir("pr-1.json")))}
	var q trailsListQuery
	out := Trails{Queries: 1}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return out, fmt.Errorf("listing the state branch of %s/%s: %w", c.Owner, c.Repo, err)
	}
	r := q.Repository
	var file *blobFields
	if r.Config != nil {
		file = &r.Config.Blob
	}
	var dir *treeFields
	if r.ConfigDir != nil {
		dir = &r.ConfigDir.Tree
	}
	cfg, err := newConfig(configPath, file, dir)
	if err != nil {
		return out, fmt.Errorf("reading the config: %w", err)
	}
	out.Config = cfg
	if r.Ref == nil || r.Ref.Target == nil {
		return out, nil
	}
	out.Exists, out.Head = true, r.Ref.Target.Oid
	var root []nameEntry
	if r.Root != nil {
		root = r.Root.Tree.Entries
	}
	subjects, audits, archives := trailSubjects(root, r.Ref.Target.Commit.Audit, r.Ref.Target.Commit.Archive)
	out.Subjects = map[string]state.AuditRead{}
	for lo := 0; lo < len(subjects); lo += TrailsBatch {
		batch := subjects[lo:min(lo+TrailsBatch, len(subjects))]
		if err := c.readTrailBatch(ctx, out.Head, batch, audits, archives, out.Subjects); err != nil {
			return out, err
		}
		out.Queries++
	}
	return out, nil
}

// trailSubjects are the subject files of the names listed, in order, and which of them
// have an audit directory and an archive directory.
func trailSubjects(root []nameEntry, audit, archive *nameDir) (subjects []string, audits, archives map[string]bool) {
	seen := map[string]bool{}
	add := func(name string) string {
		if !subjectFileName().MatchString(name) {
			return ""
		}
		file := name + ".json"
		if !seen[file] {
			seen[file] = true
			subjects = append(subjects, file)
		}
		return file
	}
	for _, e := range root {
		if e.Type == "blob" && strings.HasSuffix(e.Name, ".json") {
			add(strings.TrimSuffix(e.Name, ".json"))
		}
	}
	dirs := func(d *nameDir) map[string]bool {
		out := map[string]bool{}
		if d == nil || d.Object == nil {
			return out
		}
		for _, e := range d.Object.Tree.Entries {
			if e.Type == "tree" {
				if file := add(e.Name); file != "" {
					out[file] = true
				}
			}
		}
		return out
	}
	audits, archives = dirs(audit), dirs(archive)
	sort.Strings(subjects)
	return subjects, audits, archives
}

// readTrailBatch reads the files of the subjects of batch at commit head into into.
func (c *Client) readTrailBatch(ctx context.Context, head string, batch []string, audits, archives map[string]bool, into map[string]state.AuditRead) error {
	vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo), "head": githubv4.GitObjectID(head)}
	var fields []reflect.StructField
	field := func(name, alias, path string, typ reflect.Type) {
		fields = append(fields, reflect.StructField{Name: name, Type: typ,
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: file(path: $%s)"`, alias, alias))})
		vars[alias] = githubv4.String(path)
	}
	fileType, dirType := reflect.TypeOf((*stateFile)(nil)), reflect.TypeOf((*stateDir)(nil))
	for i, file := range batch {
		field(fmt.Sprintf("F%d", i), fmt.Sprintf("f%d", i), file, fileType)
		if audits[file] {
			field(fmt.Sprintf("A%d", i), fmt.Sprintf("a%d", i), state.AuditDir(file), dirType)
		}
		if archives[file] {
			field(fmt.Sprintf("R%d", i), fmt.Sprintf("r%d", i), state.ArchiveDir(file), dirType)
		}
	}
	commit := reflect.StructOf([]reflect.StructField{{Name: "Commit", Type: reflect.StructOf(fields), Tag: `graphql:"... on Commit"`}})
	repo := reflect.StructOf([]reflect.StructField{{Name: "Object", Type: reflect.PointerTo(commit), Tag: `graphql:"object(oid: $head)"`}})
	q := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Repository", Type: repo, Tag: repoTag}}))
	if err := c.gql.Query(ctx, q.Interface(), vars); err != nil {
		return fmt.Errorf("reading the trails of %d subjects on %s/%s: %w", len(batch), c.Owner, c.Repo, err)
	}
	obj := q.Elem().Field(0).Field(0)
	if obj.IsNil() {
		return fmt.Errorf("reading the trails on %s/%s: commit %s is gone", c.Owner, c.Repo, head)
	}
	cm := obj.Elem().Field(0)
	for i, file := range batch {
		var read state.AuditRead
		f, _ := cm.FieldByName(fmt.Sprintf("F%d", i)).Interface().(*stateFile)
		read.File = branchFile(file, f, nil)
		if audits[file] {
			d, _ := cm.FieldByName(fmt.Sprintf("A%d", i)).Interface().(*stateDir)
			read.Parts = outputFiles(state.AuditDir(file), d)
		}
		if archives[file] {
			d, _ := cm.FieldByName(fmt.Sprintf("R%d", i)).Interface().(*stateDir)
			read.Archives = outputFiles(state.ArchiveDir(file), d)
		}
		into[file] = read
	}
	return nil
}
