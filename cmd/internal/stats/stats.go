package stats

import (
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// A run's trail is a row a transition, each saying where the run went (To) and when. The
// run is at a row's To from that row to the run's next row, which makes a segment:
//
//   - a visit to a stage lasts from the row into the stage to the next row out of it (to
//     another stage, an end or escalate); rows that stay at the stage (a retry, a command,
//     a woken agent) belong to the visit;
//   - an escalated run waits for people from the row into escalate to its next row;
//   - the segment after a run's newest row is still open, and counts once it ends.
//
// The window is [since, until]: a row counts when it is in it, and a visit or an
// escalation when it ended in it (all of its time, even what lies before since).

// Report is the statistics of the runs of one repository over a window.
type Report struct {
	Since     time.Time  `json:"since"`
	Until     time.Time  `json:"until"`
	Subjects  int        `json:"subjects"`
	Pipelines []Pipeline `json:"pipelines"`
}

// Pipeline is the statistics of one pipeline's runs.
type Pipeline struct {
	Name      string `json:"name"`
	Started   int    `json:"started"`
	Finished  int    `json:"finished"`
	Completed int    `json:"completed"`
	Failed    int    `json:"failed"`
	Cancelled int    `json:"cancelled"`
	// Open counts the runs not finished at the window's end.
	Open        int              `json:"open"`
	Stages      []Stage          `json:"stages"`
	Waiting     map[Wait]Seconds `json:"waiting_seconds"`
	Loops       int              `json:"loops"`        // iterations of rules with max_iterations
	Errors      int              `json:"agent_errors"` // errors of agent (and sub-pipeline) stages
	Retries     int              `json:"retries"`      // the errors that started a new attempt
	Escalations int              `json:"escalations"`
}

// Stage is the time runs spent at one stage, a visit at a time.
type Stage struct {
	ID     string  `json:"id"`
	Type   string  `json:"type,omitempty"` // "" when the config has no such stage
	Wait   Wait    `json:"waits_for"`
	Visits int     `json:"visits"`
	Median Seconds `json:"median_seconds"`
	P90    Seconds `json:"p90_seconds"`
	Total  Seconds `json:"total_seconds"`
	order  int
	times  []time.Duration
}

// Seconds is a duration that JSON gives in whole seconds.
type Seconds time.Duration

// MarshalJSON is the duration in whole seconds.
func (s Seconds) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, int64(time.Duration(s).Round(time.Second)/time.Second), 10), nil
}

// Percentile is the nearest-rank p-th percentile (0 < p ≤ 100) of ds: the smallest
// value that at least p% of them are at or below; 0 for none. ds is sorted in place.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	rank := int(math.Ceil(p / 100 * float64(len(ds))))
	return ds[min(max(rank, 1), len(ds))-1]
}

// Aggregate is the report of the rows of subjects (each subject's trail, oldest first)
// over [since, until], the stages told by lookup.
func Aggregate(trails [][]state.AuditEntry, lookup Lookup, since, until time.Time) Report {
	rep := Report{Since: since, Until: until, Subjects: len(trails)}
	acc := map[string]*Pipeline{}
	for _, rows := range trails {
		for _, run := range byRun(rows) {
			p := acc[run[0].Pipeline]
			if p == nil {
				p = &Pipeline{Name: run[0].Pipeline, Waiting: map[Wait]Seconds{}}
				acc[p.Name] = p
			}
			addRun(p, run, lookup, since, until)
		}
	}
	for _, p := range acc {
		for i := range p.Stages {
			s := &p.Stages[i]
			s.Median, s.P90 = Seconds(Percentile(s.times, 50)), Seconds(Percentile(s.times, 90))
		}
		sort.SliceStable(p.Stages, func(i, j int) bool {
			a, b := p.Stages[i], p.Stages[j]
			if a.order != b.order {
				return a.order < b.order
			}
			return a.ID < b.ID
		})
		if p.Started+p.Finished+p.Open+len(p.Stages)+p.Escalations > 0 {
			rep.Pipelines = append(rep.Pipelines, *p)
		}
	}
	sort.Slice(rep.Pipelines, func(i, j int) bool { return rep.Pipelines[i].Name < rep.Pipelines[j].Name })
	return rep
}

// byRun splits rows by run, each run's rows in time order (their order kept on ties).
func byRun(rows []state.AuditEntry) [][]state.AuditEntry {
	idx := map[string]int{}
	var out [][]state.AuditEntry
	for _, r := range rows {
		i, ok := idx[r.Run]
		if !ok {
			i = len(out)
			idx[r.Run] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	for _, run := range out {
		sort.SliceStable(run, func(i, j int) bool { return run[i].At.Before(run[j].At) })
	}
	return out
}

// ends are the rows' To that finish a run.
var ends = map[string]bool{lang.TargetComplete: true, lang.TargetFail: true, engine.TargetCancelled: true}

// addRun adds one run's rows to p.
func addRun(p *Pipeline, run []state.AuditEntry, lookup Lookup, since, until time.Time) {
	in := func(t time.Time) bool { return !t.Before(since) && !t.After(until) }
	at, from := "", time.Time{} // where the run is, since when ("" once it ended)
	for _, r := range run {
		if r.At.After(until) {
			break
		}
		if at != "" && r.To != at && in(r.At) {
			p.segment(at, r.At.Sub(from), lookup)
		}
		if in(r.At) {
			p.count(r)
		}
		if r.To != at {
			at, from = r.To, r.At
		}
		if ends[r.To] {
			at = ""
		}
	}
	if at != "" {
		p.Open++
	}
}

// count adds what row r says of itself.
func (p *Pipeline) count(r state.AuditEntry) {
	switch {
	case r.From == "":
		p.Started++
	case r.To == lang.TargetEscalate:
		p.Escalations++
	}
	switch r.To {
	case lang.TargetComplete:
		p.Finished++
		p.Completed++
	case lang.TargetFail:
		p.Finished++
		p.Failed++
	case engine.TargetCancelled:
		p.Finished++
		p.Cancelled++
	}
	switch r.Kind {
	case model.KindLoop:
		p.Loops++
	case model.KindRetry:
		p.Errors++
		p.Retries++
	case model.KindError:
		p.Errors++
	}
}

// segment adds d spent at: an escalation, or a visit to a stage.
func (p *Pipeline) segment(at string, d time.Duration, lookup Lookup) {
	if at == lang.TargetEscalate {
		p.Waiting[People] += Seconds(d)
		return
	}
	info, ok := lookup(p.Name, at)
	if !ok {
		info = StageInfo{Wait: Other, Order: math.MaxInt}
	}
	p.Waiting[info.Wait] += Seconds(d)
	for i := range p.Stages {
		if s := &p.Stages[i]; s.ID == at {
			s.Visits++
			s.Total += Seconds(d)
			s.times = append(s.times, d)
			return
		}
	}
	p.Stages = append(p.Stages, Stage{ID: at, Type: info.Type, Wait: info.Wait, Visits: 1, Total: Seconds(d),
		order: info.Order, times: []time.Duration{d}})
}
