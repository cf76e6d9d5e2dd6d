package load

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/org/pipeline-action/engine/lang"
)

// FuzzLoad checks that Load never panics and that every error it reports lies in the file.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("version: 1\npipelines:\n  p:\n    stages:\n      - &a {id: a, type: gate, conditions: [*a]}\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, err := Load("f.yaml", src, fakeRegistry{})
		if err == nil {
			if cfg == nil {
				t.Fatal("no config and no error")
			}
			return
		}
		if cfg != nil {
			t.Fatal("a config along with errors")
		}
		var list lang.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error is not a non-empty ErrorList: %v", err)
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, e := range list {
			if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 || e.Pos.File != "f.yaml" {
				t.Errorf("position %s outside the file of %d lines: %s", e.Pos, lines, e.Message)
			}
			if e.Message == "" || e.Kind == "" {
				t.Errorf("error without message or kind: %#v", e)
			}
		}
	})
}
