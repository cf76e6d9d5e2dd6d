package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// scenario is the file `simulate` plays (DESIGN §9).
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
	// Branches the repository has from the start besides the default branch (made from it).
	Branches []string     `yaml:"branches"`
	Steps    []step       `yaml:"-"`
	Expect   *expectation `yaml:"-"`

	path string // of the scenario file, for errors and relative paths
}

// step is one entry of steps: its kind (the single key) and the decoded value.
type step struct {
	Kind  string
	Line  int
	Value any // *openPR, *review, ..., *expectation, int (redeliver), time.Duration (advance)
}

type openPR struct {
	Number int      `yaml:"number"`
	Author string   `yaml:"author"`
	Base   string   `yaml:"base"`
	Head   string   `yaml:"head"`
	Title  string   `yaml:"title"`
	Body   string   `yaml:"body"`
	Files  []string `yaml:"files"`
	Labels []string `yaml:"labels"`
	Draft  bool     `yaml:"draft"`
	// Fork names the owner of the fork the head branch lives in (<fork>/<repo name>); the
	// head branch is then not a branch of the repository, whatever its name.
	Fork    string `yaml:"fork"`
	Deliver *bool  `yaml:"deliver"`
}

type openIssue struct {
	Number  int      `yaml:"number"`
	Author  string   `yaml:"author"`
	Title   string   `yaml:"title"`
	Body    string   `yaml:"body"`
	Labels  []string `yaml:"labels"`
	Deliver *bool    `yaml:"deliver"`
}

type reviewStep struct {
	PR      int    `yaml:"pr"`
	User    string `yaml:"user"`
	State   string `yaml:"state"`
	Body    string `yaml:"body"`
	Deliver *bool  `yaml:"deliver"`
}

type prStep struct { // dismiss_review, push, close_pr, conflict
	PR   int    `yaml:"pr"`
	User string `yaml:"user"`
	// Files (push only) are written by the pushed commit: path in the repository → a file
	// of the scenario's directory holding the content.
	Files   map[string]string `yaml:"files"`
	Deliver *bool             `yaml:"deliver"`
}

// editPRStep changes a pull request as its author (or user) does in GitHub's UI; today
// its base branch.
type editPRStep struct {
	PR      int    `yaml:"pr"`
	User    string `yaml:"user"`
	Base    string `yaml:"base"`
	Deliver *bool  `yaml:"deliver"`
}

type labelStep struct {
	PR      int      `yaml:"pr"`
	Add     []string `yaml:"add"`
	Remove  []string `yaml:"remove"`
	Deliver *bool    `yaml:"deliver"`
}

// checkStep completes a check run on the PR's head: a job of an Actions workflow (the
// workflow named `workflow`, or by default one named after the check), or with `app` a
// check run of that app. A check of the same name in the same suite (same app, or same
// workflow) is a re-run and replaces the earlier one; any other stays beside it.
type checkStep struct {
	PR         int    `yaml:"pr"`
	Name       string `yaml:"name"`
	Conclusion string `yaml:"conclusion"`
	App        string `yaml:"app"`
	Workflow   string `yaml:"workflow"`
	Deliver    *bool  `yaml:"deliver"`
}

type statusStep struct {
	PR      int    `yaml:"pr"`
	Context string `yaml:"context"`
	State   string `yaml:"state"`
	Deliver *bool  `yaml:"deliver"`
}

// commentStep posts a comment. As the action's identity (user: github-actions[bot]) it
// plays another workflow of the repository commenting with GITHUB_TOKEN: GitHub starts no
// workflow for that, so no event is delivered; forge_state then makes the body a crafted
// state comment bound to the id the comment gets.
type commentStep struct {
	PR      int        `yaml:"pr"`
	User    string     `yaml:"user"`
	Body    string     `yaml:"body"`
	Forge   *forgeSpec `yaml:"forge_state"`
	Deliver *bool      `yaml:"deliver"`
}

// faultStep makes the fake refuse the next call to an operation, as GitHub sometimes does:
// an error status with a message; a rate limit, with retry_after (seconds, a secondary
// limit) or reset (seconds until the spent primary limit resets); or timeout: true, a
// request never answered until the run gives up on it.
type faultStep struct {
	Operation  string `yaml:"operation"` // a REST operationId (pulls/merge) or "graphql"
	Status     int    `yaml:"status"`
	Message    string `yaml:"message"`
	RetryAfter int    `yaml:"retry_after"`
	Reset      int    `yaml:"reset"`
	Timeout    bool   `yaml:"timeout"`
}

// configStep commits a new config to the default branch (no event: the action does not
// react to pushes of its config; runs already started keep the config they started under).
// file is a config file, or a directory as `config:` takes one; it replaces every file of
// the config before it (a file no longer there is deleted).
type configStep struct {
	File string `yaml:"file"`
}

type webhookStep struct {
	Event string `yaml:"event"`
	File  string `yaml:"file"`
}

// expectation is the form of `expect`, at the end or as a step. Every key is optional.
type expectation struct {
	PRs        map[int]subjectExpect `yaml:"prs"`
	Issues     map[int]subjectExpect `yaml:"issues"`
	Runs       []runExpect           `yaml:"runs"`
	Dispatches []map[string]any      `yaml:"dispatches"`
	// Branches is the exact set of branches of the repository (not of forks).
	Branches *[]string `yaml:"branches"`
}

type subjectExpect struct {
	Merged          *bool     `yaml:"merged"`
	Closed          *bool     `yaml:"closed"`
	Labels          *[]string `yaml:"labels"`
	Comments        *int      `yaml:"comments"`
	CommentContains []string  `yaml:"comment_contains"`
}

type runExpect struct {
	Pipeline string `yaml:"pipeline"`
	Subject  string `yaml:"subject"`
	Status   string `yaml:"status"`
	Stage    string `yaml:"stage"`
}

// stepKinds maps each step kind to a constructor of its value; nil means a scalar.
var stepKinds = map[string]func() any{
	"open_pr":        func() any { return &openPR{} },
	"open_issue":     func() any { return &openIssue{} },
	"review":         func() any { return &reviewStep{} },
	"dismiss_review": func() any { return &prStep{} },
	"edit_pr":        func() any { return &editPRStep{} },
	"push":           func() any { return &prStep{} },
	"close_pr":       func() any { return &prStep{} },
	"conflict":       func() any { return &prStep{} },
	"label":          func() any { return &labelStep{} },
	"check":          func() any { return &checkStep{} },
	"status":         func() any { return &statusStep{} },
	"comment":        func() any { return &commentStep{} },
	"edit_comment":   func() any { return &editCommentStep{} },
	"webhook":        func() any { return &webhookStep{} },
	"fault":          func() any { return &faultStep{} },
	"change_config":  func() any { return &configStep{} },
	"expect":         func() any { return &expectation{} },
	"redeliver":      nil,
	"advance":        nil,
	"report":         nil,
	"agent_fails":    nil,
}

// scenarioError is a mistake in the scenario file, with its position.
type scenarioError struct {
	path string
	line int
	msg  string
}

func (e *scenarioError) Error() string { return fmt.Sprintf("%s:%d: %s", e.path, e.line, e.msg) }

func loadScenario(path string) (*scenario, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, &scenarioError{path, 1, "a scenario is a mapping with repo, steps and expect"}
	}
	sc := &scenario{path: path, DefaultBranch: "main", Config: "pipelines.yaml"}
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "steps":
			if sc.Steps, err = decodeSteps(path, v); err != nil {
				return nil, err
			}
		case "expect":
			sc.Expect = &expectation{}
			if err := strictDecode(path, v, sc.Expect); err != nil {
				return nil, err
			}
		default:
			f, ok := fieldByTag(reflect.ValueOf(sc).Elem(), k.Value)
			if !ok {
				return nil, &scenarioError{path, k.Line, fmt.Sprintf("unknown key %q in scenario", k.Value)}
			}
			if err := v.Decode(f.Addr().Interface()); err != nil {
				return nil, &scenarioError{path, v.Line, fmt.Sprintf("%q: %v", k.Value, err)}
			}
		}
	}
	if sc.Repo == "" || !strings.Contains(sc.Repo, "/") {
		return nil, &scenarioError{path, top.Line, "\"repo\" must be owner/name"}
	}
	if sc.Clock.IsZero() {
		sc.Clock = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	}
	if sc.Timeout == 0 {
		sc.Timeout = defaultTimeout
	}
	if sc.RequestTimeout == 0 {
		sc.RequestTimeout = 10 * time.Second
	}
	if sc.Timeout < 0 || sc.RequestTimeout < 0 {
		return nil, &scenarioError{path, top.Line, "timeout and request_timeout must be positive"}
	}
	return sc, nil
}

func decodeSteps(path string, n *yaml.Node) ([]step, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, &scenarioError{path, n.Line, "\"steps\" must be a list"}
	}
	var out []step
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode || len(item.Content) != 2 {
			return nil, &scenarioError{path, item.Line, "a step is a mapping with one key: its kind"}
		}
		k, v := item.Content[0], item.Content[1]
		mk, ok := stepKinds[k.Value]
		if !ok {
			return nil, &scenarioError{path, k.Line, fmt.Sprintf("unknown step %q; known steps: %s", k.Value, strings.Join(sortedStepKinds(), ", "))}
		}
		s := step{Kind: k.Value, Line: k.Line}
		switch {
		case mk != nil:
			s.Value = mk()
			if err := strictDecode(path, v, s.Value); err != nil {
				return nil, err
			}
		case k.Value == "redeliver":
			var i int
			if err := v.Decode(&i); err != nil || i < 1 {
				return nil, &scenarioError{path, v.Line, "\"redeliver\" takes the number of an earlier step, counting from 1"}
			}
			s.Value = i
		case k.Value == "advance":
			d, err := time.ParseDuration(v.Value)
			if err != nil || d <= 0 {
				return nil, &scenarioError{path, v.Line, fmt.Sprintf("\"advance\" takes a duration such as 25h, not %q", v.Value)}
			}
			s.Value = d
		}
		out = append(out, s)
	}
	return out, nil
}

// strictDecode decodes n into out, refusing keys out's struct does not declare.
func strictDecode(path string, n *yaml.Node, out any) error {
	rv := reflect.ValueOf(out).Elem()
	if n.Kind == yaml.MappingNode && rv.Kind() == reflect.Struct {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			f, ok := fieldByTag(rv, k.Value)
			if !ok {
				return &scenarioError{path, k.Line, fmt.Sprintf("unknown key %q; known keys: %s", k.Value, strings.Join(tags(rv.Type()), ", "))}
			}
			if err := strictDecode(path, n.Content[i+1], f.Addr().Interface()); err != nil {
				return err
			}
		}
		return nil
	}
	if n.Kind == yaml.MappingNode && rv.Kind() == reflect.Map && rv.Type().Elem().Kind() == reflect.Struct {
		if rv.IsNil() {
			rv.Set(reflect.MakeMap(rv.Type()))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := reflect.New(rv.Type().Key())
			if err := n.Content[i].Decode(key.Interface()); err != nil {
				return &scenarioError{path, n.Content[i].Line, err.Error()}
			}
			val := reflect.New(rv.Type().Elem())
			if err := strictDecode(path, n.Content[i+1], val.Interface()); err != nil {
				return err
			}
			rv.SetMapIndex(key.Elem(), val.Elem())
		}
		return nil
	}
	if n.Kind == yaml.SequenceNode && rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Struct {
		for _, item := range n.Content {
			val := reflect.New(rv.Type().Elem())
			if err := strictDecode(path, item, val.Interface()); err != nil {
				return err
			}
			rv.Set(reflect.Append(rv, val.Elem()))
		}
		return nil
	}
	if err := n.Decode(out); err != nil {
		return &scenarioError{path, n.Line, strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	return nil
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

func sortedStepKinds() []string {
	out := make([]string, 0, len(stepKinds))
	for k := range stepKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// rel resolves a path written in the scenario relative to the scenario's directory.
func (sc *scenario) rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(sc.path), p)
}
