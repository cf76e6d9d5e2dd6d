package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// FileExists is the `file_exists` check of the reference: every one of `paths` exists on
// the pull request's head commit (a file or a directory). A path may be a glob
// (lang.MatchGlob: `docs/*.md`, `src/*/auth/*.go`, `src/**/auth/*_test.go`): some file or
// directory of the head matches it. A `**` is read some directories deep below its literal
// prefix (ghapi.MaxGlobDepth); when nothing matched above and the tree goes deeper, whether
// it exists is not known and the check fails closed.
type FileExists struct{}

var _ engine.Gate = FileExists{}

// Compile reads `paths` (a path or a list of them), which is required and not empty.
func (FileExists) Compile(p *lang.Params) (engine.Check, error) {
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
	for _, path := range paths {
		if err := lang.ValidGlob(strings.Trim(path, "/")); err != nil {
			p.Errorf("paths", "%q of check %q holds a malformed path %q: %v", "paths", fileExistsName, path, err)
			return nil, nil
		}
	}
	return fileExists{paths: paths}, nil
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
func (c fileExists) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(fileExistsName)
	}
	res := model.GateResult{Check: fileExistsName}
	var missing []string
	for _, p := range c.paths {
		exists, read := f.PR.PathsExist[p]
		if !read {
			res.Status, res.Message = model.GateError, fmt.Sprintf("whether %s exists on the head was not read", p)
			return res
		}
		if !exists {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		res.Status, res.Message = model.GatePass, joinAnd(c.paths)+" "+model.Plural(len(c.paths), "exists", "exist")+" on "+shortSHA(f.PR.HeadSHA)
		return res
	}
	res.Status = model.GatePending
	res.Message = fmt.Sprintf("%s %s not on the head %s", joinAnd(missing), model.Plural(len(missing), "is", "are"), shortSHA(f.PR.HeadSHA))
	res.Who = "its author (add " + model.Plural(len(missing), "it", "them") + ")"
	return res
}
