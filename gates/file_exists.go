package gates

import "github.com/org/pipeline-action/engine"

// FileExists is the `file_exists` check of the reference: every one of `paths` exists on
// the pull request's head. The facts do not list files yet, so a run that reaches it stops.
type FileExists struct{}

var _ engine.Gate = FileExists{}

// Compile reads `paths` (a path or a list of them), which is required and not empty.
func (FileExists) Compile(p *engine.Params) (engine.Check, error) {
	if !p.Has("paths") {
		p.Errorf("paths", "missing required key %q for check %q", "paths", fileExistsName)
		return nil, nil
	}
	before := len(p.Errors())
	paths := p.Strings("paths")
	if len(p.Errors()) > before {
		return nil, nil
	}
	if len(paths) == 0 {
		p.Errorf("paths", "%q of check %q must name at least one path", "paths", fileExistsName)
		return nil, nil
	}
	for _, path := range paths {
		if path == "" {
			p.Errorf("paths", "%q of check %q must not hold an empty path", "paths", fileExistsName)
			return nil, nil
		}
	}
	return fileExists{paths: paths}, nil
}

type fileExists struct {
	paths []string
}

var (
	_ engine.Check       = fileExists{}
	_ engine.Unsupported = fileExists{}
)

const fileExistsName = "file_exists"

// Paths returns the paths that must exist.
func (c fileExists) Paths() []string { return c.paths }

// Unsupported says what evaluating the check lacks.
func (fileExists) Unsupported() string {
	return `check "file_exists" (the facts do not list the pull request's files yet)`
}

// Evaluate fails closed: the facts hold no files.
func (c fileExists) Evaluate(*engine.Facts) engine.GateResult { return unsupported(fileExistsName, c) }
