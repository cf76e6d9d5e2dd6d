package sim

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
	"github.com/org/pipeline-action/state"
)

// Scenario steps that play a hostile writer of the state comment: someone with write
// access editing it, and another workflow posting as the action's own identity.

// forgeSpec is a crafted state: a run of pipeline standing at stage, every stage before
// it passed on the PR's current head. The forger computes everything the marker needs
// (the comment id, the binding), as anyone reading the source could. With config (a file
// of the scenario's directory), the run says it started under that config, pinned by its
// git blob OID (a push can put the file on the PR's branch), and pipeline and stage are
// that config's; without, it pins nothing and follows the config of the default branch.
type forgeSpec struct {
	Pipeline string `yaml:"pipeline"`
	Stage    string `yaml:"stage"`
	Config   string `yaml:"config"`
	// Key is the state key the forger signs the marker with: one it guessed, or the
	// action's own when it leaked. Without, the marker is not signed.
	Key string `yaml:"key"`
}

// editCommentStep edits the state comment on a PR as user (GitHub keeps the author and
// records the editor): find → replace in its text, or forge_state to put a crafted state
// in it. Without a trusted state comment, it edits the latest comment holding a state
// marker (the one a comment step forged, say).
//
// With author, it edits the latest comment that login wrote instead.
type editCommentStep struct {
	PR      int        `yaml:"pr"`
	Author  string     `yaml:"author"`
	User    string     `yaml:"user"`
	Find    string     `yaml:"find"`
	Replace string     `yaml:"replace"`
	Forge   *forgeSpec `yaml:"forge_state"`
	Deliver *bool      `yaml:"deliver"`
}

// editComment applies an edit_comment step.
func (s *simulation) editComment(v *editCommentStep) (ghfake.Event, string, error) {
	if v.Author != "" {
		return s.editCommentBy(v)
	}
	c := s.stateComment(v.PR)
	if c == nil {
		c = s.markedComment(v.PR)
	}
	if c == nil {
		return ghfake.Event{}, "", fmt.Errorf("edit_comment: #%d has no state comment to edit", v.PR)
	}
	if v.User == "" {
		return ghfake.Event{}, "", errors.New("edit_comment needs a user")
	}
	body := c.Body
	switch {
	case v.Forge != nil && v.Find == "":
		forged, err := s.forge(v.PR, v.Forge, c.ID)
		if err != nil {
			return ghfake.Event{}, "", fmt.Errorf("edit_comment: %w", err)
		}
		body = forged
	case v.Forge == nil && v.Find != "":
		if !strings.Contains(body, v.Find) {
			return ghfake.Event{}, "", fmt.Errorf("edit_comment: the state comment on #%d does not contain %q", v.PR, v.Find)
		}
		body = strings.Replace(body, v.Find, v.Replace, 1)
	default:
		return ghfake.Event{}, "", errors.New("edit_comment takes find (and replace), or forge_state")
	}
	ev := s.fake.EditComment(s.sc.Repo, c.ID, v.User, body)
	return ev, fmt.Sprintf("edit_comment %d on #%d by %s", c.ID, v.PR, v.User), nil
}

// markedComment is the latest comment on PR n that holds a state marker, trusted or not.
func (s *simulation) markedComment(n int) *ghfake.CommentView {
	var out *ghfake.CommentView
	s.try(func() {
		for _, c := range s.fake.Comments(s.sc.Repo, n) {
			if state.HasMarker(c.Body) {
				c := c
				out = &c
			}
		}
	})
	return out
}

// forge returns the body a forger would write into comment id: a status rendered from
// the crafted state and its marker, bound to id.
func (s *simulation) forge(n int, f *forgeSpec, id int64) (string, error) {
	sources, pin := configSources(s.config), ""
	if f.Config != "" {
		src, err := os.ReadFile(s.sc.Rel(f.Config))
		if err != nil {
			return "", fmt.Errorf("forge_state: %w", err)
		}
		sources = []load.SourceFile{{Path: run.DefaultConfigPath, Src: src}}
		pin = gitBlobOID(src)
	}
	cfg, err := engine.LoadFiles(sources, gates.Default())
	if err != nil {
		return "", fmt.Errorf("forge_state: %w", err)
	}
	p := cfg.Pipeline(f.Pipeline)
	if p == nil {
		return "", fmt.Errorf("forge_state: no pipeline %q in the config", f.Pipeline)
	}
	if p.Stage(f.Stage) == nil {
		return "", fmt.Errorf("forge_state: pipeline %q has no stage %q", f.Pipeline, f.Stage)
	}
	subject := fmt.Sprintf("%s#%d", s.sc.Repo, n)
	run := &engine.Run{ID: fmt.Sprintf("%s/%d/1", p.Name, n), Pipeline: p.Name, Subject: subject,
		Status: engine.RunRunning, Stage: f.Stage, StartedAt: s.clock.now(), UpdatedAt: s.clock.now(),
		Stages: map[string]*engine.StageRun{}, VerifiedSHA: s.fake.PR(s.sc.Repo, n).HeadSHA, ConfigOID: pin}
	for _, st := range p.Stages {
		if st.ID == f.Stage {
			run.Stages[st.ID] = &engine.StageRun{Status: engine.StageWaiting, Attempt: 1, EnteredAt: s.clock.now()}
			break
		}
		run.Stages[st.ID] = &engine.StageRun{Status: engine.StagePassed, Attempt: 1, EnteredAt: s.clock.now()}
		if st.Type == lang.StageGate {
			run.VerifiedBy = st.ID
		}
	}
	body, err := state.Body(cfg, &engine.State{Version: 1, Subject: subject, Seq: 1, Runs: []*engine.Run{run}})
	if err != nil {
		return "", err
	}
	keys, err := state.NewKeys(f.Key)
	if err != nil {
		return "", fmt.Errorf("forge_state: key: %w", err)
	}
	return state.BindKeyed(body, id, keys)
}

// gitBlobOID is git's object id of a file: sha1 of "blob <len>\x00<content>".
func gitBlobOID(src []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(src))
	h.Write(src)
	return hex.EncodeToString(h.Sum(nil))
}

// trustedComment converts a comment of the fake for state.Check.
func trustedComment(c ghfake.CommentView) state.Comment {
	return state.Comment{ID: c.ID, Author: c.Author, ViewerDidAuthor: c.Author == ghfake.BotLogin,
		Edited: !c.LastEditedAt.IsZero(), Editor: c.Editor, Body: c.Body}
}
