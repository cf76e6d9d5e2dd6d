package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/state"
)

// sweepWritesHour is how many content writes the sweeps of any hour make together, by
// default: four sweeps of defaultSweepWrites (a schedule of every 15 minutes), leaving 260
// of GitHub's 500 an hour to events, whatever the schedule. A sweep_writes above it is
// one sweep's allowance, and then the hour's.
const sweepWritesHour = 4 * defaultSweepWrites

// sweepRecordRetries is how often the sweep tries again to record its writes when another
// write moved the state branch between its read and its commit.
const sweepRecordRetries = 3

// withinHour bounds b by what the sweeps of the hour before now (log) left of the hourly
// budget, keeping one write of each for this sweep's own record.
func (b sweepBudget) withinHour(log *state.SweepLog, now time.Time) sweepBudget {
	b.perHour = max(sweepWritesHour, b.writes)
	b.hourSpent, b.hourFrees = log.Spent(now)
	b.hourLeft = b.perHour - b.hourSpent - 1
	b.reserve = 1
	return b
}

// hourStop says why no further subject is started when the sweep has made spent writes
// and the next may take next, by the hourly budget; "" when it may start.
func (b sweepBudget) hourStop(spent, next int) string {
	if b.perHour == 0 || spent+max(next, 2) <= b.hourLeft {
		return ""
	}
	why := fmt.Sprintf("the sweeps of the last hour made %d content writes and this one %d, of %d an hour", b.hourSpent, spent, b.perHour)
	if !b.hourFrees.IsZero() {
		why += fmt.Sprintf(" (more from %s, when the oldest is an hour old)", b.hourFrees.UTC().Format(time.RFC3339))
	}
	return why
}

// sweepLog is the trusted SweepLogFile of read; nil when there is none, or it is not the
// action's own or cannot be read (warned: its writes are not counted, and the next record
// replaces it).
func (r *Runner) sweepLog(read state.BranchRead, viewer string) *state.SweepLog {
	f := read.Sweeps
	if f == nil {
		return nil
	}
	if why := state.TrustFile(f, viewer); why != "" {
		r.act.Warningf("pipeline-action: sweep: the record of the last hour's sweeps is not trusted (%s); it is not counted", why)
		return nil
	}
	l, err := state.DecodeSweepLog(f.Text)
	if err != nil {
		r.act.Warningf("pipeline-action: sweep: reading %s on %s: %v; it is not counted", f.Path, read.Name, err)
		return nil
	}
	return l
}

// recordSweep adds this sweep's writes, and its record's own commit, to the index's log of
// the hour's sweeps on branch, so that the next sweeps of the hour count them; in the same
// commit the subjects of state.RetryFile it advanced (retried) leave that list.
func (r *Runner) recordSweep(ctx context.Context, client *ghapi.Client, branch, viewer string, writes int, retried []dueSubject) error {
	for attempt := 0; ; attempt++ {
		read, err := client.OpenRuns(ctx, branch)
		if err != nil || !read.Exists {
			return err
		}
		now := r.Now()
		text, err := r.sweepLog(read, viewer).With(state.SweepRun{At: now, Writes: writes + 1}, now)
		if err != nil {
			return err
		}
		files := []state.FileChange{{Path: state.SweepLogFile, Text: text}}
		if len(retried) > 0 && read.Retry != nil {
			left, err := r.retryList(read, viewer).Without(func(s state.RetrySubject) bool {
				return slices.ContainsFunc(retried, func(d dueSubject) bool { return d.number == s.Number && !s.At.After(d.retryAt) }) // not listed again since
			})
			if err != nil {
				return err
			}
			files = append(files, state.FileChange{Path: state.RetryFile, Text: left, Delete: left == ""})
		}
		_, err = client.CommitFiles(ctx, branch, read.Head, files,
			fmt.Sprintf("pipeline-action: a sweep made %d content writes", writes+1), "")
		if !errors.Is(err, state.ErrConflict) || attempt == sweepRecordRetries {
			return err
		}
	}
}
