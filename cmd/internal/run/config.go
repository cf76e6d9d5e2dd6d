package run

import (
	"context"
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
)

func (r *Runner) configPath() string {
	if p := r.act.GetInput("config"); p != "" {
		return p
	}
	return DefaultConfigPath
}

// pinned loads the configs that unfinished runs started under, when the default branch
// has moved on since (snapshot on start): one GraphQL read per such config. The ID comes
// from the stored state, so it only names a config, never makes one: a config that is not
// a version of the config on the default branch (one of its last 100 changes; an object of
// a pull request's branch never is), that is gone or that no longer loads is reported, and
// its runs follow the current one (the engine then merges nothing it cannot verify); a
// failed read stops the invocation, so the next event tries again.
func (r *Runner) pinned(ctx context.Context, client *ghapi.Client, path, defaultBranch string, cfg *lang.Config, st *model.State) (map[string]*lang.Config, error) {
	out := map[string]*lang.Config{}
	for _, run := range st.Runs {
		oid := run.ConfigOID
		if run.Status.Final() || oid == "" || oid == cfg.BlobOID {
			continue
		}
		if _, done := out[oid]; done {
			continue
		}
		out[oid] = nil
		src, err := client.ConfigByID(ctx, oid, path)
		if err != nil {
			return nil, fmt.Errorf("reading the config run %s started under: %w", run.ID, err)
		}
		var old *lang.Config
		if src == nil {
			err = fmt.Errorf("it is not one of the last 100 versions of the config on %s, or its files are gone", defaultBranch)
		} else {
			old, err = LoadConfig(src)
		}
		if err != nil {
			r.act.Warningf("run %s started under config %s, which cannot be used now (%v); it follows the current config", run.ID, oid, err)
			continue
		}
		out[oid] = old
	}
	return out, nil
}

// ConfigWhere names the files of the config at path, for messages.
func ConfigWhere(path string) string {
	if dir := ghapi.ConfigDir(path); dir != "" {
		return fmt.Sprintf("%s or %s/*.yaml", path, dir)
	}
	return path
}

// LoadConfig loads the files of a config as validate loads a directory's: merged, with
// duplicate names an error at the second and every position naming its file. Its
// BlobOID is the config's ID, which runs pin. It skips the passes that only warn,
// which an invocation does not show (ValidateConfig runs them).
func LoadConfig(c *ghapi.Config) (*lang.Config, error) {
	return loadConfig(c, engine.LoadFilesToRun)
}

// ValidateConfig is LoadConfig with the warnings `validate` shows.
func ValidateConfig(c *ghapi.Config) (*lang.Config, error) {
	return loadConfig(c, engine.LoadFiles)
}

func loadConfig(c *ghapi.Config, loadFiles func([]load.SourceFile, engine.GateRegistry) (*lang.Config, error)) (*lang.Config, error) {
	files := make([]load.SourceFile, 0, len(c.Files))
	for _, f := range c.Files {
		if f.Truncated {
			return nil, fmt.Errorf("%s is too large to read", f.Path)
		}
		files = append(files, load.SourceFile{Path: f.Path, Src: []byte(f.Text)})
	}
	cfg, err := loadFiles(files, gates.Default())
	if err != nil {
		return nil, err
	}
	cfg.BlobOID = c.ID
	return cfg, nil
}
