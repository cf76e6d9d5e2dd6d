package lang

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one config mistake, with the position of the offending value.
type Error struct {
	Pos     Pos
	Message string // lowercase, names in %q
	Kind    string // "syntax", "key", "type", "ref", "gate", "expr", ...
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s [%s]", e.Pos, e.Message, e.Kind)
}

// ErrorList is every mistake found in a config, sorted by position.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// MaxErrors is how many errors a load reports: past it, the loader and each pass stop
// looking, and the list ends with a note at the first error not shown.
const MaxErrors = 100

// Limit returns the sorted list cut to MaxErrors, with the note.
func (l ErrorList) Limit() ErrorList {
	if len(l) <= MaxErrors {
		return l
	}
	note := &Error{Pos: l[MaxErrors].Pos, Kind: "limit",
		Message: fmt.Sprintf("more than %d errors; the rest are not shown (fix these and validate again)", MaxErrors)}
	return append(l[:MaxErrors:MaxErrors], note)
}

// Sort orders the list by file, line and column.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}
