package state

import (
	"fmt"
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
