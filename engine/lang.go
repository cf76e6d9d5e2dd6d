package engine

import (
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
)

// This file is the evaluator's view of the language (packages engine/lang and
// engine/lang/load) for the packages that reach the config through engine: the same
// types, constants and functions under their engine names, and loading with the
// evaluator's gate registry.

// The config model and what loading reports, as the evaluator sees them.
type (
	ActionItem = lang.ActionItem
	Agent      = lang.Agent
	Condition  = lang.Condition
	Config     = lang.Config
	Error      = lang.Error
	ErrorList  = lang.ErrorList
	Pipeline   = lang.Pipeline
	Pos        = lang.Pos
	Settings   = lang.Settings
	SourceFile = load.SourceFile
	Stage      = lang.Stage
	Trigger    = lang.Trigger
)

// The language's names for stage types, actions, dispatches, scopes, joins and targets.
const (
	ActionAddLabel             = lang.ActionAddLabel
	ActionCloseIssue           = lang.ActionCloseIssue
	ActionCreateIssue          = lang.ActionCreateIssue
	ActionMergePR              = lang.ActionMergePR
	DefaultStateBranch         = lang.DefaultStateBranch
	DispatchAssign             = lang.DispatchAssign
	DispatchComment            = lang.DispatchComment
	DispatchLabel              = lang.DispatchLabel
	DispatchRepositoryDispatch = lang.DispatchRepositoryDispatch
	DispatchWorkflow           = lang.DispatchWorkflow
	JoinAll                    = lang.JoinAll
	JoinAny                    = lang.JoinAny
	ListenerApp                = lang.ListenerApp
	ScopeIssue                 = lang.ScopeIssue
	StageAction                = lang.StageAction
	StageAgent                 = lang.StageAgent
	StageDelay                 = lang.StageDelay
	StageGate                  = lang.StageGate
	StageHuman                 = lang.StageHuman
	StageParallel              = lang.StageParallel
	StagePipeline              = lang.StagePipeline
	TargetFail                 = lang.TargetFail
	VerdictApprove             = lang.VerdictApprove
	VerdictReject              = lang.VerdictReject
	WaitComment                = lang.WaitComment
)

// Load reads a pipeline config from one file with the gates of gates (load.Load).
func Load(file string, src []byte, gates GateRegistry) (*Config, error) {
	return load.Load(file, src, langGates(gates))
}

// LoadFiles reads a config split over several files with the gates of gates
// (load.LoadFiles).
func LoadFiles(files []SourceFile, gates GateRegistry) (*Config, error) {
	return load.LoadFiles(files, langGates(gates))
}

// MatchGlob is lang.MatchGlob.
func MatchGlob(pattern, name string) bool { return lang.MatchGlob(pattern, name) }

// ValidGlob is lang.ValidGlob.
func ValidGlob(pattern string) error { return lang.ValidGlob(pattern) }

// SameLabel is lang.SameLabel.
func SameLabel(a, b string) bool { return lang.SameLabel(a, b) }

// Suggest is lang.Suggest.
func Suggest(got string, candidates []string) string { return lang.Suggest(got, candidates) }

// YAMLSyntaxError is load.YAMLSyntaxError.
func YAMLSyntaxError(file string, src []byte, err error) *Error {
	return load.YAMLSyntaxError(file, src, err)
}

// DescribeNode is load.DescribeNode.
func DescribeNode(n *yaml.Node) string { return load.DescribeNode(n) }

// UnknownPipeline is load.UnknownPipeline.
func UnknownPipeline(cfg *Config, name string) string { return load.UnknownPipeline(cfg, name) }
