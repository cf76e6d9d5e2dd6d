package load

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load/internal/validate"
)

// ConfigVersion is the only `version:` the loader accepts.
const ConfigVersion = 1

// validID is the form of pipeline, agent and group names and stage ids.
var validID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`) })

// KindWarning marks a finding that does not stop loading (an unreachable stage, an
// unused sub-pipeline); `validate --strict` fails on it.
const KindWarning = validate.KindWarning

// UnknownPipeline is the message for a pipeline name cfg does not define: `unknown
// pipeline "x"`, with a did-you-mean or the names there are.
func UnknownPipeline(cfg *lang.Config, name string) string {
	return validate.UnknownPipeline(cfg, name)
}

// SourceFile is one config file: `.github/pipelines.yaml` or `.github/pipelines/*.yaml`.
type SourceFile struct {
	Path string
	Src  []byte
}

// Load reads a pipeline config from one file. file names the source in error
// positions; gates compiles the conditions of gate stages. It returns the config, or
// nil and an ErrorList holding every mistake found, sorted by position. Load never
// panics, whatever src holds.
func Load(file string, src []byte, gates lang.GateRegistry) (*lang.Config, error) {
	return LoadFiles([]SourceFile{{Path: file, Src: src}}, gates)
}

// LoadFiles reads a config split over several files and merges them: pipelines,
// agents and groups from every file (files in path order, so `.github/pipelines.yaml`
// comes before `.github/pipelines/*.yaml`), `settings` from at most one. A name
// defined in two files is an error at the second. At least one file must say
// `version: 1`, and together they must define a pipeline.
func LoadFiles(files []SourceFile, gates lang.GateRegistry) (*lang.Config, error) {
	return loadFiles(files, gates, true)
}

// loadFiles is LoadFiles; without warnings, the passes that only warn are skipped.
func loadFiles(files []SourceFile, gates lang.GateRegistry, warnings bool) (*lang.Config, error) {
	l := &loader{knownGates: knownGates{gates: gates}, reader: reader{exprs: lang.NewCompiler()}, maxLines: map[string]int{}, nodes: newNodeBudget(),
		pipelineNames: map[string]lang.Pos{}, agentNames: map[string]lang.Pos{}, groupNames: map[string]lang.Pos{}}
	if len(files) == 0 {
		return nil, lang.ErrorList{{Pos: lang.Pos{Line: 1, Col: 1}, Message: "no config file to load", Kind: kindKey}}
	}
	sorted := append([]SourceFile{}, files...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	l.first = sorted[0].Path
	cfg := l.loadFiles(sorted)
	if len(l.errs) == 0 {
		for _, v := range validate.Passes {
			if v.WarnsOnly && !warnings {
				continue
			}
			errs, found := v.Check(cfg)
			l.errs = append(l.errs, errs...)
			cfg.Warnings = append(cfg.Warnings, found...)
		}
	} else if cfg != nil && l.topErrs == 0 {
		// Report every mistake at once: when the files parsed and their top level
		// (settings, agents, groups, pipeline names) is sound, the reference passes also
		// run over what did load, with pipelines that failed standing in by name (so a
		// reference to one of them is not called unknown). Warnings wait for a config
		// without errors.
		partial := l.withStandIns(cfg)
		for _, v := range validate.Partial {
			errs, _ := v(partial)
			l.errs = append(l.errs, errs...)
		}
	}
	if len(l.errs) > 0 {
		l.clampPositions(l.errs)
		l.errs.Sort()
		return nil, l.errs.Limit()
	}
	l.clampPositions(cfg.Warnings)
	cfg.Warnings.Sort()
	return cfg, nil
}

// source is one parsed file and the top-level entries the second pass needs.
type source struct {
	path      string
	src       []byte
	root      *yaml.Node
	pipelines []entry
	maxLine   int      // its last line, once counted
	lines     [][]byte // src split at newlines, once a block scalar needs them
}

// line returns line i (1-based) of d, or nil past its ends.
func (d *source) line(i int) []byte {
	if d.lines == nil {
		d.lines = bytes.Split(d.src, []byte("\n"))
	}
	if i < 1 || i > len(d.lines) {
		return nil
	}
	return d.lines[i-1]
}

func (l *loader) loadFiles(files []SourceFile) *lang.Config {
	cfg := &lang.Config{Settings: defaultSettings()}
	l.cfg = cfg
	// First pass: parse every file, read version, agents and groups, and collect the
	// names of every pipeline, so that references between files resolve.
	docs := l.parseFiles(files)
	if l.nodes.spent() {
		// Past the node budget nothing is read: the files would expand without bound.
		l.topErrs = len(l.errs)
		return cfg
	}
	top := l.topLevel(docs)
	if len(docs) == 0 {
		return cfg
	}
	if top.settings != nil {
		l.use(top.settingsDoc)
		l.settings(*top.settings)
	}
	first := docs[0]
	l.use(first)
	if !top.versionSeen {
		l.errorf(first.root, kindKey, "missing required key %q in the config; add \"version: %d\"", "version", ConfigVersion)
	}
	if !top.pipelinesSeen {
		l.errorf(first.root, kindKey, "missing required key %q in the config", "pipelines")
	}
	l.topErrs = len(l.errs)
	// Second pass: the pipelines themselves.
	for _, d := range docs {
		l.use(d)
		for _, pe := range d.pipelines {
			if l.full() {
				break
			}
			if p := l.pipeline(pe); p != nil {
				cfg.Pipelines = append(cfg.Pipelines, p)
			}
		}
	}
	return cfg
}

// parseFiles parses files and returns those that parse.
func (l *loader) parseFiles(files []SourceFile) []*source {
	var docs []*source
	for _, f := range files {
		d := &source{path: f.Path, src: f.Src}
		l.use(d)
		if d.root = l.parse(f.Src); d.root != nil {
			docs = append(docs, d)
			l.labelLengths(d.root)
		}
	}
	return docs
}

// topKeys is what the top-level keys of all files hold beside agents and groups.
type topKeys struct {
	versionSeen, pipelinesSeen bool
	settings                   *entry  // the one settings key
	settingsDoc                *source // the file it is in
}

// topLevel reads the top-level keys of docs: version, agents and groups into the
// config, the pipelines of each file into its pipelines, and settings, which only
// one file may have, into the result.
func (l *loader) topLevel(docs []*source) topKeys {
	var t topKeys
	for _, d := range docs {
		l.use(d)
		known := []string{"version", "settings", "agents", "groups", "pipelines"}
		if l.pipelineSettings(d.root) {
			known = append(known, "pipeline_settings")
		}
		top := l.fields(d.root, "config", section{where: "the config", known: known})
		if e, ok := top["version"]; ok {
			t.versionSeen = true
			if v := l.version(e); v != 0 {
				l.cfg.Version = v
			}
		}
		if e, ok := top["settings"]; ok {
			if t.settings != nil {
				l.errorf(e.key, kindKey, "%q is defined in two files; previously defined at %s",
					"settings", lang.Pos{File: t.settingsDoc.path, Line: t.settings.key.Line, Col: t.settings.key.Column})
			} else {
				t.settings, t.settingsDoc = &entry{key: e.key, val: e.val}, d
			}
		}
		if e, ok := top["agents"]; ok {
			l.agents(e)
		}
		if e, ok := top["groups"]; ok {
			l.groups(e)
		}
		if e, ok := top["pipelines"]; ok {
			t.pipelinesSeen = true
			d.pipelines = l.pipelineEntries(e)
		}
	}
	return t
}

// use makes d the file that positions refer to.
func (l *loader) use(d *source) {
	if d.maxLine == 0 {
		d.maxLine = bytes.Count(d.src, []byte("\n")) + 1
	}
	l.file = d.path
	l.maxLine = d.maxLine
	l.maxLines[d.path] = l.maxLine
	l.doc = d
}

// parse returns the root mapping of src, or nil after reporting why there is none.
// A file past the node budget (see maxConfigNodes) has none; once the budget is spent,
// later files are not read.
func (l *loader) parse(src []byte) *yaml.Node {
	if l.nodes.spent() {
		return nil
	}
	var doc yaml.Node
	if err := decodeYAML(src, &doc); err != nil {
		l.syntaxError(err, src)
		return nil
	}
	if over := l.nodes.count(&doc); over != nil {
		l.errorf(over.at, kindValue, "%s", over.message(l.nodes))
		return nil
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.errorf(&yaml.Node{Line: 1, Column: 1}, kindKey,
			"the config is empty; it needs %q and %q", "version", "pipelines")
		return nil
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		l.errorf(root, kindType, "the config must be a mapping with %q and %q, not %s",
			"version", "pipelines", describe(root))
		return nil
	}
	return root
}

// decodeYAML parses src into doc, turning a panic of the parser into an error.
func decodeYAML(src []byte, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(src, doc)
}

func (l *loader) version(e entry) int {
	v := e.val
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		l.errorf(v, kindType, "%q must be an integer, not %s", "version", describe(v))
		return 0
	}
	if v.Value != fmt.Sprint(ConfigVersion) {
		l.errorf(v, kindValue, "%q must be %d, not %s", "version", ConfigVersion, v.Value)
		return 0
	}
	return ConfigVersion
}

// pipelineEntries returns the entries of `pipelines:`, reporting names defined in an
// earlier file.
func (l *loader) pipelineEntries(e entry) []entry {
	entries := l.entries(e.val, "pipelines", `"pipelines"`)
	if e.val.Kind == yaml.MappingNode && len(e.val.Content) == 0 {
		l.errorf(e.val, kindValue, "%q must define at least one pipeline", "pipelines")
	}
	var out []entry
	for _, pe := range entries {
		if l.define(l.pipelineNames, "pipeline", pe.key) {
			out = append(out, pe)
		}
	}
	return out
}

// define records name k of kind what ("pipeline") in names, reporting it when an
// earlier file defined it already.
func (l *loader) define(names map[string]lang.Pos, what string, k *yaml.Node) bool {
	if prev, ok := names[k.Value]; ok {
		l.errorf(k, kindKey, "%s %q is defined in two files; previously defined at %s", what, k.Value, prev)
		return false
	}
	names[k.Value] = l.pos(k)
	return true
}

// clampPositions keeps every position inside its file, whatever a gate or a
// validation pass reported.
func (l *loader) clampPositions(list lang.ErrorList) {
	for _, e := range list {
		if e.Pos.File == "" {
			e.Pos.File = l.first
		}
		maxLine, ok := l.maxLines[e.Pos.File]
		if !ok {
			maxLine = l.maxLines[l.first]
		}
		e.Pos.Line = min(max(e.Pos.Line, 1), max(maxLine, 1))
		e.Pos.Col = max(e.Pos.Col, 1)
	}
}

// withStandIns returns a copy of cfg holding, besides the pipelines that loaded, a bare
// entry for every pipeline whose body had errors. (Agents and groups need none: the
// passes run over a config with errors only when those all loaded.)
func (l *loader) withStandIns(cfg *lang.Config) *lang.Config {
	out := *cfg
	out.Pipelines = append([]*lang.Pipeline{}, cfg.Pipelines...)
	for _, name := range slices.Sorted(maps.Keys(l.pipelineNames)) {
		if cfg.Pipeline(name) == nil {
			out.Pipelines = append(out.Pipelines, &lang.Pipeline{Name: name, Pos: l.pipelineNames[name]})
		}
	}
	return &out
}
