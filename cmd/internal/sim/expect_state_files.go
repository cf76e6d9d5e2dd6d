package sim

import (
	"fmt"
	"sort"
)

// checkFileBytes checks that no file the action keeps at the head of the state branch name
// (files: path → text) is larger than most bytes (nil: no bound). The branch is created
// from the default branch, whose files (inherited: path → text) it carries unchanged; those
// are not the action's and are not counted. GitHub's GraphQL gives at most 512,000 bytes of
// a file's text, and every event reads its subject's file: a bound well below says the
// state stays readable as runs grow. A failure names the largest file.
func checkFileBytes(report func(bool, string, string, string), name string, files, inherited map[string]string, most *int) {
	if most == nil {
		return
	}
	paths := make([]string, 0, len(files))
	for p, text := range files {
		if was, ok := inherited[p]; !ok || was != text {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	largest, size := "", -1
	for _, p := range paths {
		if len(files[p]) > size {
			largest, size = p, len(files[p])
		}
	}
	what := "no file of its own"
	if largest != "" {
		what = fmt.Sprintf("%s: %d bytes", largest, size)
	}
	report(size <= *most, "the largest file at the head of state branch "+name, fmt.Sprintf("at most %d bytes", *most), what)
}
