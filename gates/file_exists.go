package gates

import (
	"fmt"
	"path"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// FileExists is the `file_exists` check of the reference: every one of `paths` exists on
// the pull request's head commit (a file or a directory). A path may end in a pattern
// (`docs/*.md`: some entry of docs matches); a wildcard in a directory, or `**`, is not read
// yet, and a run that reaches such a check stops.
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
	for _, p := range paths {
		if !readablePattern(p) {
			return fileExistsDeep{fileExists{paths: paths}, p}, nil
		}
	}
	return fileExists{paths: paths}, nil
}

// readablePattern reports whether only the last segment of p holds wildcards (and no `**`).
func readablePattern(p string) bool {
	if !strings.ContainsAny(p, "*?[") {
		return true
	}
	if strings.Contains(p, "**") {
		return false
	}
	dir, name := "", p
	if i := strings.LastIndex(p, "/"); i >= 0 {
		dir, name = p[:i], p[i+1:]
	}
	_, err := path.Match(name, "")
	return !strings.ContainsAny(dir, "*?[") && err == nil
}

type fileExists struct {
	paths []string
}

var _ engine.Check = fileExists{}

const fileExistsName = "file_exists"

// Paths returns the paths that must exist.
func (c fileExists) Paths() []string { return c.paths }

// Evaluate passes when the head holds every path; it waits while one is missing, and fails
// closed when the paths were not read.
func (c fileExists) Evaluate(f *engine.Facts) engine.GateResult {
	if f == nil || f.PR == nil {
		return noPR(fileExistsName)
	}
	res := engine.GateResult{Check: fileExistsName}
	var missing []string
	for _, p := range c.paths {
		exists, read := f.PR.PathsExist[p]
		if !read {
			res.Status, res.Message = engine.GateError, fmt.Sprintf("whether %s exists on the head was not read", p)
			return res
		}
		if !exists {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		res.Status, res.Message = engine.GatePass, joinAnd(c.paths)+" "+plural(len(c.paths), "exists", "exist")+" on "+shortSHA(f.PR.HeadSHA)
		return res
	}
	res.Status = engine.GatePending
	res.Message = fmt.Sprintf("%s %s not on the head %s", joinAnd(missing), plural(len(missing), "is", "are"), shortSHA(f.PR.HeadSHA))
	res.Who = "its author (add " + plural(len(missing), "it", "them") + ")"
	return res
}

// fileExistsDeep is file_exists with a pattern whose directories hold wildcards.
type fileExistsDeep struct {
	fileExists
	pattern string
}

var (
	_ engine.Check       = fileExistsDeep{}
	_ engine.Unsupported = fileExistsDeep{}
)

// Unsupported says what evaluating the check lacks.
func (c fileExistsDeep) Unsupported() string {
	return fmt.Sprintf("check \"file_exists\" with pattern %q (only the last segment of a path may hold wildcards)", c.pattern)
}

// Evaluate fails closed.
func (c fileExistsDeep) Evaluate(*engine.Facts) engine.GateResult {
	return unsupported(fileExistsName, c)
}
