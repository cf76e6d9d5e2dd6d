package engine

import (
	"bytes"
	"fmt"
	"regexp"

	"gopkg.in/yaml.v3"
)

// ConfigVersion is the only `version:` the loader accepts.
const ConfigVersion = 1

// validID is the form of pipeline names and stage ids.
var validID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Load reads a pipeline config. file names the source in error positions; gates compiles
// the conditions of gate stages. It returns the config, or nil and an ErrorList holding
// every mistake found, sorted by position. Load never panics, whatever src holds.
func Load(file string, src []byte, gates GateRegistry) (*Config, error) {
	l := &loader{file: file, gates: gates, maxLine: bytes.Count(src, []byte("\n")) + 1}
	cfg := l.load(src)
	if len(l.errs) > 0 {
		l.clampPositions()
		l.errs.Sort()
		return nil, l.errs
	}
	return cfg, nil
}

func (l *loader) load(src []byte) *Config {
	var doc yaml.Node
	if err := decodeYAML(src, &doc); err != nil {
		l.syntaxError(err, src)
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
	f := l.fields(root, "config", section{
		where:       "the config",
		known:       []string{"version", "pipelines"},
		unsupported: []string{"settings", "agents", "groups"},
	})
	cfg := &Config{}
	if e, ok := f["version"]; ok {
		cfg.Version = l.version(e)
	} else {
		l.errorf(root, kindKey, "missing required key %q in the config; add \"version: %d\"", "version", ConfigVersion)
	}
	e, ok := f["pipelines"]
	if !ok {
		l.errorf(root, kindKey, "missing required key %q in the config", "pipelines")
		return cfg
	}
	entries := l.entries(e.val, "pipelines", `"pipelines"`)
	if e.val.Kind == yaml.MappingNode && len(entries) == 0 && len(e.val.Content) == 0 {
		l.errorf(e.val, kindValue, "%q must define at least one pipeline", "pipelines")
	}
	for _, pe := range entries {
		if p := l.pipeline(pe); p != nil {
			cfg.Pipelines = append(cfg.Pipelines, p)
		}
	}
	return cfg
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

// pipeline loads one entry of `pipelines:`.
func (l *loader) pipeline(e entry) *Pipeline {
	name := e.key.Value
	if !validID.MatchString(name) {
		l.errorf(e.key, kindID, "invalid pipeline name %q; use lowercase letters, digits, %q and %q, starting with a letter or digit",
			name, "-", "_")
	}
	p := &Pipeline{Name: name, Pos: l.pos(e.key)}
	f := l.fields(e.val, name, section{
		where:       fmt.Sprintf("pipeline %q", name),
		known:       []string{"description", "trigger", "on_events", "stages"},
		unsupported: []string{"display_name", "priority", "scope", "context", "variables", "on_complete", "on_error"},
	})
	if e.val.Kind != yaml.MappingNode {
		return nil
	}
	if d, ok := f["description"]; ok {
		p.Description, _ = l.str(d)
	}
	if t, ok := f["trigger"]; ok {
		p.Trigger = l.trigger(t, name)
	}
	if r, ok := f["on_events"]; ok {
		p.OnEvents = l.reactions(r, name)
	}
	s, ok := f["stages"]
	if !ok {
		l.errorf(e.val, kindKey, "missing required key %q in pipeline %q", "stages", name)
		return p
	}
	p.Stages = l.stages(s, name)
	return p
}

// clampPositions keeps every error inside the file, whatever a gate reported.
func (l *loader) clampPositions() {
	for _, e := range l.errs {
		if e.Pos.File == "" {
			e.Pos.File = l.file
		}
		e.Pos.Line = min(max(e.Pos.Line, 1), l.maxLine)
		e.Pos.Col = max(e.Pos.Col, 1)
	}
}
