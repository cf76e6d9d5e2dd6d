package stats

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// WriteMarkdown prints rep as Markdown (a job summary, an issue, a wiki page): a section
// a pipeline with its figures, a table of its stages and two Mermaid charts — a pie of
// the time its runs waited, by whom, and a bar chart (xychart-beta) of the median and
// 90th percentile minutes a visit to each stage took.
func WriteMarkdown(w io.Writer, rep Report, title string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Pipeline statistics: %s\n\n", mdEscape(title))
	fmt.Fprintf(&b, "%s → %s UTC, %d %s.\n", rep.Since.UTC().Format("2006-01-02 15:04"), rep.Until.UTC().Format("2006-01-02 15:04"),
		rep.Subjects, plural(rep.Subjects, "subject", "subjects"))
	if len(rep.Pipelines) == 0 {
		b.WriteString("\nNo run moved in this window.\n")
	}
	for _, p := range rep.Pipelines {
		fmt.Fprintf(&b, "\n## %s\n\n", mdEscape(p.Name))
		b.WriteString("| started | finished | completed | failed | cancelled | open | loops | agent errors | retries | escalations |\n")
		b.WriteString("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n\n", p.Started, p.Finished, p.Completed, p.Failed,
			p.Cancelled, p.Open, p.Loops, p.Errors, p.Retries, p.Escalations)
		fmt.Fprintf(&b, "Waiting: %s.\n", waitingLine(p))
		if len(p.Stages) > 0 {
			b.WriteString("\n| stage | type | waits for | visits | median | p90 | total |\n|---|---|---|--:|--:|--:|--:|\n")
			for _, s := range p.Stages {
				fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s |\n", mdEscape(s.ID), orDot(s.Type), waitName(s.Wait), s.Visits,
					Human(time.Duration(s.Median)), Human(time.Duration(s.P90)), Human(time.Duration(s.Total)))
			}
		}
		b.WriteString(pieChart(p))
		b.WriteString(barChart(p))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pieChart is a Mermaid pie of the hours p's runs waited, by whom; "" when they waited
// for none.
func pieChart(p Pipeline) string {
	var b strings.Builder
	for _, k := range Waits {
		if d := time.Duration(p.Waiting[k]); d > 0 {
			fmt.Fprintf(&b, "    %q : %s\n", waitName(k), number(d.Hours()))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("\n```mermaid\npie showData\n    title %s, hours waiting by whom\n%s```\n", mermaidText(p.Name), b.String())
}

// barChart is a Mermaid xychart-beta of the median and p90 minutes of a visit to each
// of p's stages (the median drawn over the p90); "" without stages.
func barChart(p Pipeline) string {
	if len(p.Stages) == 0 {
		return ""
	}
	labels, medians, p90s := make([]string, len(p.Stages)), make([]string, len(p.Stages)), make([]string, len(p.Stages))
	for i, s := range p.Stages {
		labels[i] = strconv.Quote(mermaidText(s.ID))
		medians[i] = number(time.Duration(s.Median).Minutes())
		p90s[i] = number(time.Duration(s.P90).Minutes())
	}
	return fmt.Sprintf("\n```mermaid\nxychart-beta\n    title \"%s, minutes a visit to a stage took (median over p90)\"\n"+
		"    x-axis [%s]\n    y-axis \"minutes\"\n    bar [%s]\n    bar [%s]\n```\n",
		mermaidText(p.Name), strings.Join(labels, ", "), strings.Join(p90s, ", "), strings.Join(medians, ", "))
}

// number is x with at most two decimals, as Mermaid reads numbers.
func number(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }

// mermaidText is s without the characters that end a Mermaid string or line.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "'", "\n", " ", "\r", " ", "`", "'").Replace(s)
}

// mdEscape keeps s from breaking a Markdown table or heading.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}
