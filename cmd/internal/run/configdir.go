package run

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
)

// ReadConfigDir reads the config files of directory dir: `.github/pipelines.yaml`
// and `.github/pipelines/*.yaml` in name order, or else `pipelines.yaml` (as in an
// example or scenario directory). It is an error when there are none.
func ReadConfigDir(dir string) ([]load.SourceFile, error) {
	var paths []string
	main := filepath.Join(dir, configFile)
	if _, err := os.Stat(main); err == nil {
		paths = append(paths, main)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	more, err := filepath.Glob(filepath.Join(dir, configDir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(more)
	paths = append(paths, more...)
	if len(paths) == 0 {
		// An example or scenario directory holds its config as pipelines.yaml.
		plain := filepath.Join(dir, "pipelines.yaml")
		if _, err := os.Stat(plain); err != nil {
			return nil, fmt.Errorf("%s: no config found; expected %s, %s/*.yaml or pipelines.yaml", dir, configFile, configDir)
		}
		paths = append(paths, plain)
	}
	files := make([]load.SourceFile, 0, len(paths))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, load.SourceFile{Path: p, Src: src})
	}
	return files, nil
}

// JoinAnd joins "a", "a and b", "a, b and c".
func JoinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// AsErrorList returns err as positioned errors; an error without positions is
// placed at the start of file.
func AsErrorList(err error, file string) lang.ErrorList {
	var list lang.ErrorList
	if errors.As(err, &list) {
		return list
	}
	return lang.ErrorList{{Pos: lang.Pos{File: file, Line: 1, Col: 1}, Message: err.Error(), Kind: "load"}}
}

// Config file locations inside a directory.
const (
	configFile = ".github/pipelines.yaml"
	configDir  = ".github/pipelines"
)
