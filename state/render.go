package state

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// allHistory asks render for every history entry.
const allHistory = -1

// Render returns the human part of the state comment: Markdown, one section per
// run, newest run first (by StartedAt; runs that started together keep their order
// in State.Runs). Each section has the run's status, a stage table, what the
// current stage waits for and who can move it, a Mermaid diagram of the pipeline
// and the run's history. The output depends only on cfg and st: times are those
// stored in the state, shown in UTC.
//
// A run whose pipeline is no longer in cfg is shown from the stages it recorded,
// without a diagram. A nil cfg has no pipelines; a nil st has no runs.
func Render(cfg *lang.Config, st *engine.State) string {
	return render(cfg, st, allHistory)
}

// render shows at most history entries of each run's history (the newest ones);
// allHistory shows them all and 0 none.
func render(cfg *lang.Config, st *engine.State, history int) string {
	var b strings.Builder
	b.WriteString("### pipeline-action\n\n")
	runs := sortedRuns(st)
	top := runs[:0:0]
	for _, r := range runs {
		if !nested(st, r) { // shown under its parent's stage
			top = append(top, r)
		}
	}
	runs = top
	renderFollowers(&b, st)
	if len(runs) == 0 && (st == nil || len(st.Followers) == 0) {
		b.WriteString("No pipeline has run here yet.\n\n")
	}
	for i, run := range runs {
		if i > 0 {
			b.WriteString("---\n\n")
		}
		var p *lang.Pipeline
		if cfg != nil {
			p = cfg.PipelineFor(run)
		}
		renderRun(&b, cfg, st, p, run, history)
	}
	renderShared(&b, st)
	b.WriteString("Status updates on every event.\n")
	return b.String()
}

func sortedRuns(st *engine.State) []*engine.Run {
	if st == nil {
		return nil
	}
	runs := make([]*engine.Run, 0, len(st.Runs))
	for _, r := range st.Runs {
		if r != nil {
			runs = append(runs, r)
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].StartedAt.After(runs[j].StartedAt) })
	return runs
}

func renderRun(b *strings.Builder, cfg *lang.Config, st *engine.State, p *lang.Pipeline, run *engine.Run, history int) {
	title := "**" + inline(run.Pipeline) + "**"
	if p != nil && p.DisplayName != "" && p.DisplayName != run.Pipeline { // the pipeline's metadata (display_name)
		title = "**" + inline(p.DisplayName) + "** " + code(run.Pipeline)
	}
	fmt.Fprintf(b, "%s · %s\n", title, headline(run))
	if p != nil && p.Description != "" {
		fmt.Fprintf(b, "> %s\n", esc(p.Description))
	}
	fmt.Fprintf(b, "\n<sub>run %s · started %s</sub>\n\n", code(run.ID), stamp(run.StartedAt))
	if p == nil {
		fmt.Fprintf(b, "⚠️ Pipeline %s is no longer in the config (renamed or removed): the stages below are the ones this run recorded, without a diagram.\n\n", code(run.Pipeline))
	}

	b.WriteString("| stage | status | since |\n| --- | --- | --- |\n")
	for _, id := range withBranches(p, run, stageOrder(p, run)) {
		sr := run.Stages[id]
		if sr == nil {
			fmt.Fprintf(b, "| %s | · | |\n", stageLabel(p, run, id))
			continue
		}
		status, depth := stageOutcome(p, run, id, sr), 1
		if sr.Parent != "" {
			status, depth = branchRow(p, run, id), 2 // a branch's child nests under the branch
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", stageLabel(p, run, id), status, stamp(sr.EnteredAt))
		childRows(b, cfg, st, sr, depth)
	}
	b.WriteString("\n")

	renderWhy(b, run)
	renderTime(b, run)
	renderVariables(b, "Variables", run.Variables)

	if p != nil {
		// Folded: the stage table says where the run is; the chart is there for who wants it.
		fmt.Fprintf(b, "<details><summary>Chart</summary>\n\n```mermaid\n%s```\n\n</details>\n\n", engine.Mermaid(p, run))
	}
	renderHistory(b, run, history)
}

func headline(run *engine.Run) string {
	at := code(run.Stage)
	if sr := run.Stages[run.Stage]; sr != nil && sr.Status == engine.StageRetrying && !run.Status.Final() {
		return "retrying " + at
	}
	switch run.Status {
	case engine.RunWaiting:
		return "waiting at " + at
	case engine.RunRunning:
		return "running " + at
	case engine.RunCompleted:
		return "✅ completed"
	case engine.RunFailed:
		return "❌ failed at " + at + reason(run.Message)
	case engine.RunCancelled:
		return "🚫 cancelled at " + at + reason(run.Message)
	case engine.RunEscalated:
		return "🙋 escalated at " + at + reason(run.Message) +
			" · *waits for a maintainer: `/pipeline retry`, `skip`, `unblock`, `restart` or `cancel`*"
	}
	return inline(string(run.Status)) + " at " + at
}

func reason(msg string) string {
	if msg == "" {
		return ""
	}
	return " — " + inline(msg)
}

// stageOrder lists the pipeline's stages in file order, then any stage the run
// recorded that the pipeline no longer has, by entry time and id.
func stageOrder(p *lang.Pipeline, run *engine.Run) []string {
	var ids []string
	listed := map[string]bool{}
	if p != nil {
		for _, s := range p.Stages {
			ids = append(ids, s.ID)
			listed[s.ID] = true
		}
	}
	var extra []string
	for id := range run.Stages {
		if !listed[id] && run.Stages[id] != nil {
			extra = append(extra, id)
		}
	}
	sort.Slice(extra, func(i, j int) bool {
		a, b := run.Stages[extra[i]].EnteredAt, run.Stages[extra[j]].EnteredAt
		if !a.Equal(b) {
			return a.Before(b)
		}
		return extra[i] < extra[j]
	})
	return append(ids, extra...)
}

func stageStatus(sr *engine.StageRun) string {
	switch sr.Status {
	case engine.StageWaiting:
		return "⏳ waiting"
	case engine.StageActing:
		return "▶️ acting"
	case engine.StageRetrying:
		return fmt.Sprintf("🔁 retrying (tried %d)", sr.Tries)
	case engine.StagePassed:
		return "✅ passed"
	case engine.StageSucceeded:
		return "✅ succeeded"
	case engine.StageFailed:
		return "❌ failed"
	case engine.StageCancelled:
		return "🚫 cancelled"
	case engine.StageSkipped:
		return "⏭️ skipped"
	case engine.StageStale:
		if sr.Stale != nil {
			return "♻️ stale — " + cell(sr.Stale.Why)
		}
		return "♻️ stale"
	}
	return cell(string(sr.Status))
}

// renderWhy says what the current stage of an unfinished run waits for.
func renderWhy(b *strings.Builder, run *engine.Run) {
	sr := run.Stages[run.Stage]
	if run.Status.Final() || sr == nil {
		return
	}
	switch sr.Status {
	case engine.StageRetrying:
		fmt.Fprintf(b, "**Why it waits** — stage %s: %s\n\n", code(run.Stage), inline(sr.Message))
	case engine.StageActing:
		fmt.Fprintf(b, "**In progress** — stage %s: the action was requested; its outcome is not known yet.\n\n", code(run.Stage))
	case engine.StageWaiting:
		fmt.Fprintf(b, "**Why it waits** — stage %s:\n", code(run.Stage))
		if len(sr.Results) == 0 {
			b.WriteString("- not evaluated yet\n")
		}
		for _, r := range sr.Results {
			renderResult(b, r)
		}
		b.WriteString("\n")
	}
}

func renderResult(b *strings.Builder, r engine.GateResult) {
	icon := map[engine.GateStatus]string{
		engine.GatePass: "✅", engine.GatePending: "⏳", engine.GateFail: "❌", engine.GateError: "⚠️",
	}[r.Status]
	if icon == "" {
		icon = "❔"
	}
	opt := ""
	if r.Optional {
		opt = " (optional)"
		if r.Status != engine.GatePass {
			icon = "⬜"
		}
	}
	fmt.Fprintf(b, "- %s **%s**%s — %s", icon, inline(r.Check), opt, inline(r.Message))
	if r.Status != engine.GatePass && !r.Optional && r.Who != "" {
		fmt.Fprintf(b, " · *can move it: %s*", inline(r.Who))
	}
	b.WriteString("\n")
}

// renderHistory writes a run's history (at most limit entries, unless allHistory),
// oldest first, folded in <details>: where the run began (the first entries a run keeps
// once it cuts rows) and the newest entries, with a row saying what lies between.
func renderHistory(b *strings.Builder, run *engine.Run, limit int) {
	h := run.History
	if len(h) == 0 {
		return
	}
	total := len(h) + run.HistoryCut
	if limit == 0 {
		fmt.Fprintf(b, "<sub>History (%d) left out: the comment would exceed GitHub's size limit.</sub>\n\n", total)
		return
	}
	first, rest, gap := historyRows(run, limit)
	summary := fmt.Sprintf("History (%d)", total)
	switch {
	case gap > 0 && len(first) > 0:
		summary = fmt.Sprintf("History (%d, first %d and newest %d shown)", total, len(first), len(rest))
	case gap > 0:
		summary = fmt.Sprintf("History (%d, newest %d shown)", total, len(rest))
	}
	fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", summary)
	b.WriteString("| time | from → to | why | actor |\n| --- | --- | --- | --- |\n")
	historyTable(b, first)
	if gap > 0 {
		fmt.Fprintf(b, "| | … | %d %s between: %s prints the whole trail | |\n", gap, rowsWord(gap), auditCommand(run.Subject))
	}
	historyTable(b, rest)
	b.WriteString("\n</details>\n\n")
}

// historyRows splits run's history into the first rows and the newest to show (at most
// limit together, unless allHistory), and counts the rows left out between.
func historyRows(run *engine.Run, limit int) (first, rest []engine.Transition, gap int) {
	h := run.History
	head := 0
	if run.HistoryCut > 0 {
		head = min(engine.HistoryHead, len(h))
	}
	first, rest = h[:head], h[head:]
	if limit > 0 && limit < len(h) {
		if limit < len(first) {
			first = first[:limit]
		}
		rest = rest[len(rest)-(limit-len(first)):]
	}
	return first, rest, len(h) + run.HistoryCut - len(first) - len(rest)
}

func historyTable(b *strings.Builder, rows []engine.Transition) {
	for _, t := range rows {
		from := cell(t.From)
		if from == "" {
			from = "·"
		}
		fmt.Fprintf(b, "| %s | %s → %s | %s | %s |\n", stamp(t.At), from, cell(t.To), cell(t.Why), cell(t.Actor))
	}
}

func rowsWord(n int) string {
	if n == 1 {
		return "row"
	}
	return "rows"
}

// auditCommand is the command that prints the whole trail of subject (owner/repo#7),
// as inline code.
func auditCommand(subject string) string {
	repo, number, ok := strings.Cut(subject, "#")
	if !ok {
		return "`pipeline-action audit`"
	}
	return codeSpan(fmt.Sprintf("pipeline-action audit --repo %s --number %s", oneLine(repo), oneLine(number)))
}

// stamp formats a stored time in UTC, or "" for the zero time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// code shows an identifier (a run id, a stage) as inline code, on one line; "" for
// none.
func code(s string) string {
	return codeSpan(strings.ReplaceAll(strings.TrimSpace(oneLine(s)), "<!", "<\u200b!"))
}

// esc makes text from the config (a pipeline's description) inert inside a line: no
// HTML (so no fake state marker), no line breaks, no cell separators, and no Markdown
// that does something — no link or image (brackets are escaped), no code span, no
// entity, no @mention, no issue reference and no autolinked URL (a word joiner,
// U+2060, which shows as nothing, follows each `@` and `#` and breaks `://` and
// `www.`). Text from GitHub and contributors goes through inline or cell instead,
// which keep it exactly as written.
func esc(s string) string {
	return wwwDot.ReplaceAllString(escaper.Replace(s), "${1}"+wj+".")
}

// wwwDot is "www." in any case, which GitHub links as an address.
var wwwDot = regexp.MustCompile(`(?i)(www)\.`)

// wj is the word joiner: invisible, and it stops GitHub from linking what it splits.
const wj = "\u2060"

var escaper = strings.NewReplacer(
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ",
	`\`, `\\`, "`", "\\`", "[", `\[`, "]", `\]`,
	"@", "@"+wj, "#", "#"+wj, "://", ":"+wj+"//",
)

// Text that comes from GitHub or from whoever opens a pull request — gate messages
// (which name checks, labels, users and branches), failure reasons, the events and
// actors of the history — is shown inert: as it is when it holds nothing Markdown or
// GitHub would act on, else as one code span, where GitHub renders no link, image,
// HTML, mention (@team), reference (#12) or emphasis. inline is for text in a line,
// cell for text in a table cell.
func inline(s string) string { return engine.InertInline(s) }

func cell(s string) string { return engine.InertCell(s) }

func oneLine(s string) string { return engine.OneLine(s) }

func codeSpan(s string) string { return engine.CodeSpan(s) }
