package run

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// GitHub's secondary limits on content-creating requests (REST writes, GraphQL
// mutations) per identity: 80 a minute, 500 an hour. Every invocation of the action's
// identity counts, events as well as sweeps.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
const (
	writesPerMinute = 80
	writesPerHour   = 500
)

// defaultSweepWrites is how many content writes one sweep makes at most (the sweep_writes
// input): under the 80 a minute, with room for the events of that minute, and four sweeps
// an hour (a schedule of every 15 minutes) leave 260 of the 500 an hour to events.
const defaultSweepWrites = 60

// sweepBudget bounds one sweep: subjects advanced (sweep_budget) and content writes made
// (sweep_writes).
type sweepBudget struct {
	subjects, writes int
	// The hour's budget of all sweeps: perHour writes an hour, of which the
	// sweeps of the last hour made hourSpent, leaving hourLeft to this one; the oldest of
	// them leaves the hour at hourFrees. perHour 0: no hourly bound.
	perHour, hourSpent, hourLeft int
	hourFrees                    time.Time
	// reserve is the writes kept from b.writes for the sweep's record of its writes.
	reserve int
}

// parseSweepBudget reads the inputs sweep_budget and sweep_writes; an error names the bad one.
func parseSweepBudget(input func(string) string) (sweepBudget, error) {
	b := sweepBudget{subjects: defaultSweepBudget, writes: defaultSweepWrites}
	if v := input("sweep_budget"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return b, fmt.Errorf("input sweep_budget: %q is not a positive number of subjects", v)
		}
		b.subjects = n
	}
	if v := input("sweep_writes"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > writesPerHour {
			return b, fmt.Errorf("input sweep_writes: %q is not a number of content writes from 1 to %d (GitHub's secondary limit an hour)", v, writesPerHour)
		}
		b.writes = n
	}
	return b, nil
}

// sweepPass is what one sweep did with the subjects due.
type sweepPass struct {
	due      []dueSubject
	advanced int    // the subjects taken, oldest deadline first (a failed one included)
	writes   int    // the content writes made
	stopped  string // why the rest were left due; "" when none was
	results  []subjectResult
	failed   bool
	retried  []dueSubject // the subjects of state.RetryFile advanced without an error
}

// advance advances the subjects of due, oldest deadline first, within b: a subject is
// started only while the writes made and the most one subject has made so far stay within
// b.writes, and a minute's writes within GitHub's 80 (the sweep waits for the minute to
// pass when sweep_writes allows more).
func (r *Runner) advance(ctx context.Context, client *ghapi.Client, ev routed, due []dueSubject, b sweepBudget) sweepPass {
	p := sweepPass{due: due}
	key := r.inputKey(ev.Event, []byte("sweep"))
	start, most := client.Writes(), 0
	var marks []writeMark // the writes made, as each subject ended
	for _, d := range due {
		spent := client.Writes() - start
		if p.stopped = stopReason(p.advanced, spent, max(most, 1), b); p.stopped != "" {
			break
		}
		if err := r.paceMinute(ctx, marks, spent, max(most, 1)); err != nil || ctx.Err() != nil {
			p.stopped, p.failed = "the sweep's time ran out", true
			break
		}
		r.act.Infof("pipeline-action: sweep: #%d, due since %s (%s)", d.number, d.at.UTC().Format(time.RFC3339), strings.Join(d.runs, ", "))
		sev := ev
		sev.Issue, sev.reviewed = d.issue, d.reviewed
		before := client.Writes()
		res, err := r.subject(ctx, client, sev, d.number, key)
		p.advanced++
		most = max(most, client.Writes()-before)
		marks = append(marks, writeMark{at: r.Now(), total: client.Writes() - start})
		if err != nil {
			r.act.Errorf("%s#%d: %v", ev.Repo, d.number, err)
			p.failed = true
			if ghapi.IsRateLimit(err) { // every next subject would meet it too, and spend more of the hour
				p.stopped = "GitHub's rate limit refused a request; they wait for a sweep after it ends"
				break
			}
			continue
		}
		if res != nil {
			p.results = append(p.results, *res)
		}
		if !d.retryAt.IsZero() {
			p.retried = append(p.retried, d)
		}
	}
	p.writes = client.Writes() - start
	return p
}

// stopReason says why no further subject is started after advanced of them and spent
// writes, when the next may take next writes; "" when it may start.
func stopReason(advanced, spent, next int, b sweepBudget) string {
	switch {
	case advanced >= b.subjects:
		return fmt.Sprintf("sweep_budget %d subjects reached", b.subjects)
	case spent+next > b.writes-b.reserve:
		return fmt.Sprintf("sweep_writes %d: %d content writes made, and a subject takes up to %d", b.writes, spent, next)
	}
	return b.hourStop(spent, next)
}

// writeMark is the total of the sweep's writes when a subject ended.
type writeMark struct {
	at    time.Time
	total int
}

// paceMinute waits, when the writes of the last minute and next more would pass GitHub's
// 80 a minute, until enough of them are a minute old.
func (r *Runner) paceMinute(ctx context.Context, marks []writeMark, spent, next int) error {
	for {
		now := r.Now()
		base := 0 // the writes made over a minute ago
		var kept []writeMark
		for _, m := range marks {
			if now.Sub(m.at) >= time.Minute {
				base = m.total
			} else {
				kept = append(kept, m)
			}
		}
		if spent-base+next <= writesPerMinute || len(kept) == 0 {
			return nil
		}
		wait := kept[0].at.Add(time.Minute).Sub(now)
		r.act.Infof("pipeline-action: sweep: %d content writes in the last minute; waiting %s (GitHub allows %d a minute)",
			spent-base, wait.Round(time.Second), writesPerMinute)
		if err := r.wait(ctx, wait); err != nil {
			return err
		}
	}
}

// summarize says what the sweep did and what it left due, in the job log and the job
// summary: how many subjects it advanced with how many content writes, and the subjects
// left for the next sweep, oldest deadline first.
func (r *Runner) summarize(p sweepPass, b sweepBudget) {
	line := fmt.Sprintf("advanced %d of %d due %s with %d content %s (sweep_writes %d, sweep_budget %d)",
		p.advanced, len(p.due), Plural(len(p.due), "subject", "subjects"), p.writes, Plural(p.writes, "write", "writes"), b.writes, b.subjects)
	left := p.due[p.advanced:]
	if len(left) > 0 {
		runs := 0
		for _, d := range left {
			runs += len(d.runs)
		}
		line += fmt.Sprintf("; %d %s (%d %s) left due for the next sweep, %s, the oldest due since %s: %s",
			len(left), Plural(len(left), "subject", "subjects"), runs, Plural(runs, "run", "runs"), p.stopped,
			left[0].at.UTC().Format(time.RFC3339), leftList(left, 10))
	}
	r.act.Infof("pipeline-action: sweep: %s", line)
	if path := r.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendEnvFile(path, "## Sweep\n\n"+strings.ToUpper(line[:1])+line[1:]+".\n\n"); err != nil {
			r.act.Warningf("pipeline-action: the job summary could not be written (%v)", err)
		}
	}
}

// leftList names the first n subjects of left, and how many more there are.
func leftList(left []dueSubject, n int) string {
	var names []string
	for i, d := range left {
		if i == n {
			names = append(names, fmt.Sprintf("and %d more", len(left)-n))
			break
		}
		names = append(names, "#"+strconv.Itoa(d.number))
	}
	return strings.Join(names, ", ")
}
