package stats

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// ParseSince reads a window's length: a number of days ("30d"), weeks ("2w") or any Go
// duration ("12h", "90m"); it is positive.
func ParseSince(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if n, unit := strings.TrimRight(s, "dw"), strings.TrimLeft(s, "0123456789"); unit == "d" || unit == "w" {
		var k int
		k, err = strconv.Atoi(n)
		d = time.Duration(k) * 24 * time.Hour
		if unit == "w" {
			d *= 7
		}
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--since is a positive duration such as 30d, 2w, 12h or 90m, not %q", s)
	}
	return d, nil
}

// Human is d to the second, in its two largest units: "3d4h", "2h5m", "45s".
func Human(d time.Duration) string {
	d = d.Round(time.Second)
	if d <= 0 {
		return "0s"
	}
	units := []struct {
		n    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
	var b strings.Builder
	parts := 0
	for _, u := range units {
		if q := d / u.n; q > 0 || parts > 0 {
			if q > 0 {
				fmt.Fprintf(&b, "%d%s", q, u.name)
			}
			d -= q * u.n
			if parts++; parts == 2 {
				break
			}
		}
	}
	return b.String()
}

// WriteJSON prints rep as indented JSON.
func WriteJSON(w io.Writer, rep Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText prints rep for a terminal: a paragraph and a table of stages a pipeline.
func WriteText(w io.Writer, rep Report) error {
	fmt.Fprintf(w, "%s → %s UTC, %d %s.\n", rep.Since.UTC().Format("2006-01-02 15:04"), rep.Until.UTC().Format("2006-01-02 15:04"),
		rep.Subjects, plural(rep.Subjects, "subject", "subjects"))
	if len(rep.Pipelines) == 0 {
		_, err := fmt.Fprintln(w, "\nNo run moved in this window.")
		return err
	}
	for _, p := range rep.Pipelines {
		fmt.Fprintf(w, "\n%s: %s\n", p.Name, runsLine(p))
		fmt.Fprintf(w, "  waiting: %s\n", waitingLine(p))
		fmt.Fprintf(w, "  loops %d, agent errors %d (retried %d), escalations %d\n", p.Loops, p.Errors, p.Retries, p.Escalations)
		if len(p.Stages) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  STAGE\tTYPE\tWAITS FOR\tVISITS\tMEDIAN\tP90\tTOTAL")
		for _, s := range p.Stages {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\t%s\n", s.ID, orDot(s.Type), waitName(s.Wait), s.Visits,
				Human(time.Duration(s.Median)), Human(time.Duration(s.P90)), Human(time.Duration(s.Total)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func runsLine(p Pipeline) string {
	return fmt.Sprintf("%d %s started, %d finished (%d completed, %d failed, %d cancelled), %d open",
		p.Started, plural(p.Started, "run", "runs"), p.Finished, p.Completed, p.Failed, p.Cancelled, p.Open)
}

// waitingLine is the time p's runs waited, by whom, with each one's share.
func waitingLine(p Pipeline) string {
	var total time.Duration
	for _, d := range p.Waiting {
		total += time.Duration(d)
	}
	parts := make([]string, 0, len(Waits))
	for _, k := range Waits {
		d := time.Duration(p.Waiting[k])
		share := 0
		if total > 0 {
			share = int((d*100 + total/2) / total)
		}
		parts = append(parts, fmt.Sprintf("%s %s (%d%%)", waitName(k), Human(d), share))
	}
	return strings.Join(parts, ", ")
}

func waitName(k Wait) string {
	if k == CI {
		return "CI"
	}
	return string(k)
}

func orDot(s string) string {
	if s == "" {
		return "·"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
