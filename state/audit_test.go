package state

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// record adds a transition to run as the engine does: the first engine.HistoryHead rows
// and the newest stay, up to engine.MaxHistory.
func record(run *model.Run, n int) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Minute)
	run.History = append(run.History, model.Transition{At: at, From: "ready", To: "ready", Why: fmt.Sprintf("round %03d", n)})
	if cut := len(run.History) - model.MaxHistory; cut > 0 {
		run.History = append(run.History[:model.HistoryHead], run.History[model.HistoryHead+cut:]...)
		run.HistoryCut += cut
	}
}

// Saves of a run that goes round 120 times, a few rounds a save, leave all 121 rows on
// the branch: full parts of 25 written once each, the rest in the file's tail; saving
// the same change again adds none.
func TestAuditKeepsEveryRowAcrossSaves(t *testing.T) {
	ctx := t.Context()
	next := sampleState()
	m, w, logs := savedSubject(t, nil, next)
	parts := map[string]string{}
	for round := 1; round <= 120; {
		d := subjectStores(m, w, commentsOf(w), logs)
		st, v, err := d.Load(ctx, 7)
		require.NoError(t, err)
		next = sampleState()
		next.Runs[0] = cloneRun(st.Runs[0])
		for k := 0; k < 7 && round <= 120; k++ {
			record(next.Runs[0], round)
			round++
		}
		c := change(st, next)
		v, err = d.Save(ctx, 7, c, v)
		require.NoError(t, err)
		_, err = d.Save(ctx, 7, c, v) // again: nothing new
		require.NoError(t, err)
		for p, text := range m.files {
			if old, ok := parts[p]; ok {
				assert.Equal(t, old, text, "%s is written once", p)
			}
			if len(p) > 6 && p[:6] == "audit/" {
				parts[p] = text
			}
		}
	}
	assert.Len(t, parts, 2, "71 rows cut: two parts of 25, 21 in the tail")
	read := AuditRead{File: &BranchFile{Path: "pr-7.json", Text: m.files["pr-7.json"]}, Parts: parts}
	rows, problems := Trail("acme/widgets#7", read, nil)
	assert.Empty(t, problems)
	require.Len(t, rows, 121)
	assert.Equal(t, "pull_request.opened", rows[0].Why)
	for i := 1; i <= 120; i++ {
		assert.Equal(t, fmt.Sprintf("round %03d", i), rows[i].Why)
	}
}

func cloneRun(r *model.Run) *model.Run {
	c := *r
	c.History = append([]model.Transition(nil), r.History...)
	return &c
}

// The trail reads parts by number, archived runs beside live ones, and says which file
// it could not read.
func TestTrailOrdersPartsAndArchives(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	line := func(n int) string {
		return fmt.Sprintf(`{"at":%q,"run":"p/7/1","pipeline":"p","to":"s","why":"cut %d"}`+"\n", at.Add(time.Duration(n)*time.Minute).Format(time.RFC3339), n)
	}
	archived := &model.Run{ID: "p/7/1", Pipeline: "p", Subject: "acme/widgets#7", StartedAt: at, HistoryCut: 2,
		History: []model.Transition{{At: at, To: "s", Why: "first"}, {At: at.Add(time.Hour), To: "complete", Why: "last"}}}
	text, err := EncodeRun(archived)
	require.NoError(t, err)
	read := AuditRead{
		Parts:    map[string]string{"audit/pr-7/0010.jsonl": line(2), "audit/pr-7/0002.jsonl": line(1), "audit/pr-7/0011.jsonl": "{"},
		Archives: map[string]string{"archive/pr-7/p.7.1.json": text},
	}
	rows, problems := Trail("acme/widgets#7", read, nil)
	var whys []string
	for _, r := range rows {
		whys = append(whys, r.Why)
	}
	assert.Equal(t, []string{"first", "cut 1", "cut 2", "last"}, whys)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0], "audit/pr-7/0011.jsonl")
}

// trailBranch is the branch after saves, with keys, of a run that goes round 110 times
// (two audit parts) and then finishes beside a newer run of its pipeline, which archives
// it; and what the audit command reads of it, its file's commit signed by GitHub.
func trailBranch(t *testing.T, keys *Keys) (*memBranch, AuditRead) {
	t.Helper()
	ctx := t.Context()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	var logs []string
	load := func() (*Dual, *model.State, Version) {
		d := subjectStores(m, w, commentsOf(w), &logs)
		d.SetKeys(keys)
		st, v, err := d.Load(ctx, 7)
		require.NoError(t, err)
		return d, st, v
	}
	d, st, v := load()
	_, err := d.Save(ctx, 7, change(st, sampleState()), v)
	require.NoError(t, err)
	for round := 1; round <= 110; {
		d, st, v = load()
		next := sampleState()
		next.Runs[0] = cloneRun(st.Runs[0])
		for k := 0; k < 7 && round <= 110; k++ {
			record(next.Runs[0], round)
			round++
		}
		_, err = d.Save(ctx, 7, change(st, next), v)
		require.NoError(t, err)
	}
	d, st, v = load()
	next := sampleState()
	done := cloneRun(st.Runs[0])
	done.Status = model.RunCompleted
	again := cloneRun(sampleState().Runs[0])
	again.ID, again.StartedAt = "auto-merge/7/2", done.StartedAt.Add(3*time.Hour)
	next.Runs = []*model.Run{done, again}
	_, err = d.Save(ctx, 7, change(st, next), v)
	require.NoError(t, err)

	read := AuditRead{File: &BranchFile{Path: "pr-7.json", Text: m.files["pr-7.json"], Signed: true},
		Parts: map[string]string{}, Archives: map[string]string{}}
	for p, text := range m.files {
		switch {
		case strings.HasPrefix(p, AuditDir("pr-7.json")+"/"):
			read.Parts[p] = text
		case strings.HasPrefix(p, ArchiveDir("pr-7.json")+"/"):
			read.Archives[p] = text
		}
	}
	require.Len(t, read.Parts, 2)
	require.Len(t, read.Archives, 1)
	return m, read
}

// unverifiedWhys are the rows of rows whose file is not vouched for, by why.
func unverifiedWhys(rows []TrailRow) map[string][]string {
	out := map[string][]string{}
	for _, r := range rows {
		if r.Unverified != "" {
			out[r.Unverified] = append(out[r.Unverified], r.Why)
		}
	}
	return out
}

// The subject's file records the SHA-256 of every audit part and archive the action
// wrote, so that the audit command tells them from files anyone who may push wrote: a
// part pushed beside them, a part or an archive changed, is printed as unverified, and
// the rest of the trail stays verified.
func TestTrailVerifiesPartsAndArchives(t *testing.T) {
	for _, keys := range []*Keys{nil, mustKeys(t, keyA)} {
		_, read := trailBranch(t, keys)
		rows, problems := Trail("acme/widgets#7", read, keys)
		require.Empty(t, problems)
		require.Len(t, rows, 111+1, "the archived run's 111 rows and the new run's first")
		assert.Empty(t, unverifiedWhys(rows), "the action's own files are verified")

		forged := fmt.Sprintf(`{"at":%q,"run":"auto-merge/7/1","pipeline":"auto-merge","actor":"mallory","from":"ready","to":"merge","why":"approved by the maintainers"}`+"\n",
			time.Date(2026, 1, 5, 9, 30, 30, 0, time.UTC).Format(time.RFC3339))
		read.Parts["audit/pr-7/0003.jsonl"] = forged
		rows, _ = Trail("acme/widgets#7", read, keys)
		assert.Equal(t, map[string][]string{
			"audit/pr-7/0003.jsonl: the subject's file records no SHA-256 of it (not written by this action, or by a version that recorded none)": {"approved by the maintainers"},
		}, unverifiedWhys(rows))

		delete(read.Parts, "audit/pr-7/0003.jsonl")
		read.Parts["audit/pr-7/0001.jsonl"] = strings.Replace(read.Parts["audit/pr-7/0001.jsonl"], "round 010", "round ten", 1)
		for p, text := range read.Archives {
			read.Archives[p] = strings.Replace(text, "round 110", "round one hundred and ten", 1)
		}
		rows, _ = Trail("acme/widgets#7", read, keys)
		whys := unverifiedWhys(rows)
		require.Len(t, whys, 2, "%v", whys)
		assert.Len(t, whys["audit/pr-7/0001.jsonl: changed since this action wrote it (its SHA-256 is not the one the subject's file records)"], 25)
		assert.Contains(t, whys["archive/pr-7/auto-merge.7.1.json: changed since this action wrote it (its SHA-256 is not the one the subject's file records)"], "round one hundred and ten")
	}
}

// The subject's file vouches for the parts only when it is itself trusted: its commit
// signed by GitHub and, with a key, its own signature verifying with the key given.
func TestTrailUnverifiedWithoutATrustedFile(t *testing.T) {
	keys := mustKeys(t, keyA)
	_, read := trailBranch(t, keys)
	for _, tc := range []struct {
		name   string
		signed bool
		keys   *Keys
		want   string
	}{
		{"pushed", false, keys, "pr-7.json was last changed by a commit that GitHub did not sign"},
		{"no key given", true, nil, "pr-7.json is signed with a state key, and none was given to verify it (INPUT_STATE_KEY)"},
		{"another key", true, mustKeys(t, keyB), "pr-7.json: its signature does not verify with the state key"},
	} {
		f := *read.File
		f.Signed = tc.signed
		r := read
		r.File = &f
		rows, problems := Trail("acme/widgets#7", r, tc.keys)
		require.Empty(t, problems, tc.name)
		require.NotEmpty(t, rows, tc.name)
		for _, row := range rows {
			assert.Contains(t, row.Unverified, tc.want, "%s: %s", tc.name, row.Why)
		}
	}
	// A file without a key's signature, read with a key: unverified too.
	_, read = trailBranch(t, nil)
	rows, _ := Trail("acme/widgets#7", read, keys)
	for _, row := range rows {
		assert.Contains(t, row.Unverified, "pr-7.json: it carries no signature made with the state key", row.Why)
	}
}
