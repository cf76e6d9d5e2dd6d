package sim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
)

// scenario is the file `simulate` plays (docs/scenarios.md).
type scenario struct {
	Repo          string            `yaml:"repo"`
	DefaultBranch string            `yaml:"default_branch"`
	Clock         time.Time         `yaml:"clock"`
	Config        string            `yaml:"config"` // a file, or a directory as validate reads one
	Users         map[string]string `yaml:"users"`
	// Timeout and RequestTimeout are the run's `timeout` and `request_timeout` inputs
	// (default 5m and 10s): a short request_timeout keeps a timeout fault quick.
	Timeout        time.Duration       `yaml:"timeout"`
	RequestTimeout time.Duration       `yaml:"request_timeout"`
	Teams          map[string][]string `yaml:"teams"`
	SweepBudget    int                 `yaml:"sweep_budget"` // the sweep's `sweep_budget` input (default 20)
	SweepWrites    int                 `yaml:"sweep_writes"` // the sweep's `sweep_writes` input (default 60)
	// Branches the repository has from the start besides the default branch (made from it).
	Branches []string `yaml:"branches"`
	// Files are written on the default branch at the start: path in the repository → a
	// file of the scenario's directory (an agent's workflow, say).
	Files  map[string]string `yaml:"files"`
	Steps  []step            `yaml:"-"`
	Expect *expectation      `yaml:"-"`

	path string // of the scenario file, for errors and relative paths

	// HTTP stubs the webhook calls ("METHOD URL": {status, body}), DNS says what a host
	// resolves to (default DefaultSimAddress), and Secrets are the secrets webhook headers
	// read.
	HTTP    httpStubs         `yaml:"http"`
	DNS     map[string]string `yaml:"dns"`
	Secrets map[string]string `yaml:"secrets"`
	// Repos are other repositories (owner/name, default branch main) whose pull requests a
	// multi-PR run follows; they do not run the action.
	Repos []string `yaml:"repos"`
	// StateKey is the action's `state_key` input, given to every invocation (runs, sweeps
	// and agents' reports): states are signed with it.
	StateKey string `yaml:"state_key"`
	// Token is what the action runs with: "github" (GITHUB_TOKEN, the default) or "app".
	Token string `yaml:"token"`
	// Mergeability and Protection are how GitHub computes and enforces merges.
	Mergeability *mergeabilitySetting         `yaml:"mergeability"`
	Protection   map[string]protectionSetting `yaml:"protection"`
	// Permissions are the scopes of the action's tokens.
	Permissions map[string]any `yaml:"permissions"`
	// SecondaryLimits makes the fake enforce GitHub's secondary rate limits.
	SecondaryLimits bool `yaml:"secondary_limits"`
	// PrimaryLimits makes the fake count GitHub's primary rate limits for the kind of
	// token the scenario's `token:` is; PrimaryUsed ("core" for REST,
	// "graphql") is what the action's identity has spent of the hour when the story starts.
	PrimaryLimits bool           `yaml:"primary_limits"`
	PrimaryUsed   map[string]int `yaml:"primary_used"`
	// Tick moves the scenario's clock before each step.
	Tick time.Duration `yaml:"tick"`
	// DryRun is the action's `dry_run` input, given to every invocation: it writes nothing.
	DryRun bool `yaml:"dry_run"`
}

// step is one entry of steps: its kind (the single key) and the decoded value.
type step struct {
	Kind  string
	Line  int
	Col   int
	Value any  // *openPR, *review, ..., *expectation, *togetherStep, int (redeliver), heldRef, time.Duration (advance), stateBranchStep
	Later bool // `deliver: later`: the events are held for a deliver_held step
}

// stateBranchStep is `state_branch: delete` or `state_branch: protect`.
type stateBranchStep string

// stepKinds maps each step kind to a constructor of its value; nil means a scalar.
var stepKinds = map[string]func() any{
	"open_pr":          func() any { return &openPR{} },
	"open_issue":       func() any { return &openIssue{} },
	"review":           func() any { return &reviewStep{} },
	"dismiss_review":   func() any { return &prStep{} },
	"resolve":          func() any { return &resolveStep{} },
	"edit_pr":          func() any { return &editPRStep{} },
	"push":             func() any { return &prStep{} },
	"close_pr":         func() any { return &prStep{} },
	"ready_for_review": func() any { return &prStep{} },
	"convert_to_draft": func() any { return &prStep{} },
	"conflict":         func() any { return &prStep{} },
	"label":            func() any { return &labelStep{} },
	"check":            func() any { return &checkStep{} },
	"status":           func() any { return &statusStep{} },
	"deploy":           func() any { return &deployStep{} },
	"comment":          func() any { return &commentStep{} },
	"edit_comment":     func() any { return &editCommentStep{} },
	"access":           func() any { return &accessStep{} },
	"update_branch":    func() any { return &prStep{} },
	"webhook":          func() any { return &webhookStep{} },
	"fault":            func() any { return &faultStep{} },
	"change_config":    func() any { return &configStep{} },
	"expect":           func() any { return &expectation{} },
	"redeliver":        nil,
	"deliver_held":     nil,
	"advance":          nil,
	"together":         nil,
	"state_branch":     nil,
	"report":           func() any { return &reportStep{} },
	"agent_fails":      func() any { return &agentFailsStep{} },
	"workflow_run":     func() any { return &workflowRunStep{} },
	"dispatch":         func() any { return &dispatchStep{} },
	"http":             func() any { return &httpStubs{} },
	"state_key":        func() any { return &stateKeyStep{} },
	"doctor":           func() any { return &doctorStep{} },
	"explain":          func() any { return &explainStep{} },
}

// scenarioError is a mistake in the scenario file, with its position.
type scenarioError struct {
	path      string
	line, col int
	msg       string
}

func (e *scenarioError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.path, e.line, max(e.col, 1), e.msg)
}

// printError prints err on stderr: a mistake in the scenario file as file:line:col: message,
// as editors and problem matchers read it; anything else after the command's name.
func printError(stderr io.Writer, err error) {
	var at *scenarioError
	var yamlAt *lang.Error
	var list lang.ErrorList
	if errors.As(err, &at) || errors.As(err, &yamlAt) || errors.As(err, &list) {
		fmt.Fprintln(stderr, err)
		return
	}
	fmt.Fprintf(stderr, "pipeline-action simulate: %v\n", err)
}

// errorAt is a mistake at node n of the scenario file.
func errorAt(path string, n *yaml.Node, format string, args ...any) *scenarioError {
	return &scenarioError{path, max(n.Line, 1), max(n.Column, 1), fmt.Sprintf(format, args...)}
}

func loadScenario(path string) (*scenario, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, load.YAMLSyntaxError(path, src, err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		at := &root
		if len(root.Content) > 0 {
			at = root.Content[0]
		}
		return nil, errorAt(path, at, "a scenario is a mapping with repo, steps and expect")
	}
	sc := &scenario{path: path, DefaultBranch: "main", Config: "pipelines.yaml"}
	d := &scenarioDecoder{path: path}
	top := root.Content[0]
	known := append(tags(reflect.TypeOf(*sc)), "steps", "expect")
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if first, ok := seen[k.Value]; ok {
			return nil, errorAt(path, k, "duplicate key %q in scenario (first at %s:%d:%d)", k.Value, path, first.Line, first.Column)
		}
		seen[k.Value] = k
		switch k.Value {
		case "steps":
			if sc.Steps, err = decodeSteps(d, v); err != nil {
				return nil, err
			}
		case "expect":
			sc.Expect = &expectation{}
			if err := d.decode(v, "expect", "", reflect.ValueOf(sc.Expect).Elem()); err != nil {
				return nil, err
			}
		default:
			f, ok := fieldByTag(reflect.ValueOf(sc).Elem(), k.Value)
			if !ok {
				return nil, d.unknown(k, "scenario", "key", known)
			}
			if err := d.decode(v, "scenario", k.Value, f); err != nil {
				return nil, err
			}
		}
	}
	if sc.Repo == "" || !strings.Contains(sc.Repo, "/") {
		at := top
		if n := seen["repo"]; n != nil {
			at = n
		}
		return nil, errorAt(path, at, "\"repo\" must be owner/name")
	}
	if err := checkScenarioToken(path, sc, seen["token"]); err != nil {
		return nil, err
	}
	if err := checkPrimaryUsed(path, sc, seen["primary_used"]); err != nil {
		return nil, err
	}
	if err := sc.checkPermissions(seen["permissions"]); err != nil {
		return nil, err
	}
	if err := sc.checkHeld(seen["tick"]); err != nil {
		return nil, err
	}
	if sc.Clock.IsZero() {
		sc.Clock = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	}
	if sc.Timeout == 0 {
		sc.Timeout = run.DefaultTimeout
	}
	if sc.RequestTimeout == 0 {
		sc.RequestTimeout = 10 * time.Second
	}
	if sc.Timeout < 0 || sc.RequestTimeout < 0 {
		return nil, errorAt(path, top, "timeout and request_timeout must be positive")
	}
	return sc, nil
}

// scenarioDecoder decodes the nodes of a scenario file into its types strictly: an
// unknown or duplicate key, or a value of the wrong type, is an error at its position,
// with a suggestion for a misspelt key, as a config's mistakes are.
type scenarioDecoder struct {
	path string
}

var (
	timeType     = reflect.TypeOf(time.Time{})
	durationType = reflect.TypeOf(time.Duration(0))
)

// decode decodes n into out. where names the mapping n lies in ("open_pr",
// "expect.prs.7") and key the key it is the value of ("" for the value of a step or of
// expect itself), for messages.
func (d *scenarioDecoder) decode(n *yaml.Node, where, key string, out reflect.Value) error {
	n = deref(n)
	t := out.Type()
	switch t.Kind() {
	case reflect.Pointer, reflect.Struct, reflect.Map, reflect.Slice:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" && t != timeType {
			return nil // absent, as if not written
		}
	}
	inner := where
	if key != "" {
		inner = where + "." + key
	}
	switch {
	case t.Kind() == reflect.Pointer:
		v := reflect.New(t.Elem())
		if err := d.decode(n, where, key, v.Elem()); err != nil {
			return err
		}
		out.Set(v)
		return nil
	case t.Kind() == reflect.Struct && t != timeType:
		if n.Kind != yaml.MappingNode {
			return d.typeError(n, where, key, t)
		}
		return d.decodeStruct(n, inner, out)
	case t.Kind() == reflect.Map:
		if n.Kind != yaml.MappingNode {
			return d.typeError(n, where, key, t)
		}
		return d.decodeMap(n, inner, out)
	case t.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return d.typeError(n, where, key, t)
		}
		for _, item := range n.Content {
			v := reflect.New(t.Elem()).Elem()
			if err := d.decode(item, inner, "", v); err != nil {
				return err
			}
			out.Set(reflect.Append(out, v))
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode && t.Kind() != reflect.Interface {
		return d.typeError(n, where, key, t)
	}
	if err := n.Decode(out.Addr().Interface()); err != nil {
		return d.typeError(n, where, key, t)
	}
	return nil
}

// decodeStruct decodes the mapping n, at inner, into the fields of the struct out
// named by their yaml tags.
func (d *scenarioDecoder) decodeStruct(n *yaml.Node, inner string, out reflect.Value) error {
	t := out.Type()
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		f, ok := fieldByTag(out, k.Value)
		if !ok || k.Kind != yaml.ScalarNode {
			return d.unknown(k, inner, "key", tags(t))
		}
		if first, ok := seen[k.Value]; ok {
			return errorAt(d.path, k, "duplicate key %q in %s (first at %s:%d:%d)", k.Value, inner, d.path, first.Line, first.Column)
		}
		seen[k.Value] = k
		if err := d.decode(n.Content[i+1], inner, k.Value, f); err != nil {
			return err
		}
	}
	return nil
}

// decodeMap decodes the mapping n, at inner, into the map out.
func (d *scenarioDecoder) decodeMap(n *yaml.Node, inner string, out reflect.Value) error {
	t := out.Type()
	if out.IsNil() {
		out.Set(reflect.MakeMap(t))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		kv := reflect.New(t.Key()).Elem()
		if k.Kind != yaml.ScalarNode || k.Decode(kv.Addr().Interface()) != nil {
			return errorAt(d.path, k, "the keys of %s must be %s, not %s", inner, typeWord(t.Key(), true), load.DescribeNode(k))
		}
		if out.MapIndex(kv).IsValid() {
			return errorAt(d.path, k, "duplicate key %q in %s", k.Value, inner)
		}
		vv := reflect.New(t.Elem()).Elem()
		if err := d.decode(n.Content[i+1], inner, k.Value, vv); err != nil {
			return err
		}
		out.SetMapIndex(kv, vv)
	}
	return nil
}

// typeError says n is not a value of type t.
func (d *scenarioDecoder) typeError(n *yaml.Node, where, key string, t reflect.Type) error {
	what := where
	if key != "" {
		what = fmt.Sprintf("%q in %s", key, where)
	}
	return errorAt(d.path, n, "%s must be %s, not %s", what, typeWord(t, false), load.DescribeNode(n))
}

// unknown reports a key or step kind that is none of known, with the closest as a
// suggestion, or else the list of them.
func (d *scenarioDecoder) unknown(k *yaml.Node, where, what string, known []string) error {
	msg := fmt.Sprintf("unknown %s %q", what, k.Value)
	if where != "" {
		msg += " in " + where
	}
	if s := lang.Suggest(k.Value, known); s != "" {
		return errorAt(d.path, k, "%s; did you mean %q?", msg, s)
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return errorAt(d.path, k, "%s; expected one of %s", msg, strings.Join(sorted, ", "))
}

// typeWord names the values of type t for messages: "a whole number", "a list of strings".
func typeWord(t reflect.Type, many bool) string {
	one, more := "", ""
	switch {
	case t == durationType:
		one, more = "a duration such as 5m", "durations such as 5m"
	case t == timeType:
		one, more = "a time such as 2026-01-05T09:00:00Z", "times such as 2026-01-05T09:00:00Z"
	case t.Kind() == reflect.Pointer:
		return typeWord(t.Elem(), many)
	case t.Kind() == reflect.String:
		one, more = "a string", "strings"
	case t.Kind() == reflect.Bool:
		one, more = "true or false", "true or false"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		one, more = "a whole number", "whole numbers"
	case t.Kind() == reflect.Slice:
		one, more = "a list of "+typeWord(t.Elem(), true), "lists"
	case t.Kind() == reflect.Map || t.Kind() == reflect.Struct:
		one, more = "a mapping", "mappings"
	default:
		one, more = "a value", "values"
	}
	if many {
		return more
	}
	return one
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func fieldByTag(rv reflect.Value, tag string) (reflect.Value, bool) {
	for i := 0; i < rv.NumField(); i++ {
		if t := rv.Type().Field(i).Tag.Get("yaml"); t == tag && t != "-" {
			return rv.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func tags(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// Rel resolves a path written in the scenario relative to the scenario's directory.
func (sc *scenario) Rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(sc.path), p)
}
