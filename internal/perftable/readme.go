package main

import (
	"bytes"
	"fmt"
	"strings"
)

// The table of docs/performance.md stands between these markers, each on a line of its own.
const (
	beginMarker = "<!-- perf:begin -->"
	endMarker   = "<!-- perf:end -->"
)

// cell is a row's measurement: the number, and where and when it was measured.
type cell struct {
	value, commit, date, machine string
}

const tableHead = "| figure | goal | measured | how to read it | commit | date | machine |\n" +
	"| --- | --- | --- | --- | --- | --- | --- |\n"

// render is the table of rows with their cells.
func render(rows []row, cells []cell) string {
	var b strings.Builder
	b.WriteString(tableHead)
	for i, r := range rows {
		c := cells[i]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n",
			r.figure, r.goal, c.value, r.read, c.commit, c.date, c.machine)
	}
	return b.String()
}

// between returns the document around its table: what comes up to the begin marker's line
// included, the table, and what follows from the end marker's line.
func between(readme []byte) (before, table, after []byte, err error) {
	if n := bytes.Count(readme, []byte(beginMarker)); n != 1 {
		return nil, nil, nil, fmt.Errorf("docs/performance.md holds %s %d times, want once", beginMarker, n)
	}
	if n := bytes.Count(readme, []byte(endMarker)); n != 1 {
		return nil, nil, nil, fmt.Errorf("docs/performance.md holds %s %d times, want once", endMarker, n)
	}
	b := bytes.Index(readme, []byte(beginMarker+"\n"))
	e := bytes.Index(readme, []byte("\n"+endMarker))
	if b < 0 || e < 0 || e < b {
		return nil, nil, nil, fmt.Errorf("%s and %s must stand on lines of their own, in this order", beginMarker, endMarker)
	}
	b += len(beginMarker) + 1
	return readme[:b], readme[b : e+1], readme[e+1:], nil
}

// rewrite puts table between the document's markers.
func rewrite(readme []byte, table string) ([]byte, error) {
	before, _, after, err := between(readme)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(before)
	out.WriteString(table)
	out.Write(after)
	return out.Bytes(), nil
}

// previous reads the cells of the table, by figure, to keep the rows not
// measured again.
func previous(readme []byte) (map[string]cell, error) {
	_, table, _, err := between(readme)
	if err != nil {
		return nil, err
	}
	cells := map[string]cell{}
	for _, line := range strings.Split(strings.TrimPrefix(string(table), tableHead), "\n") {
		f := strings.Split(line, " | ")
		if len(f) != 7 || !strings.HasPrefix(line, "| ") {
			continue
		}
		figure := strings.TrimPrefix(f[0], "| ")
		cells[figure] = cell{value: f[2], commit: f[4], date: f[5], machine: strings.TrimSuffix(f[6], " |")}
	}
	return cells, nil
}
