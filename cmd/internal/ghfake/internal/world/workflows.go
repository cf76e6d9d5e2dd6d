package world

import (
	"sort"
	"strings"
)

// GitHub lets no GitHub App without the `workflows` permission — the Actions GITHUB_TOKEN
// never has it — create or update a file under .github/workflows/, and merging a pull request
// that changes one is such an update: the merge is refused with this message.

// WorkflowFile returns the first (sorted) of files under .github/workflows/, or "".
func WorkflowFile(files []string) string {
	var out []string
	for _, f := range files {
		if strings.HasPrefix(f, ".github/workflows/") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return ""
	}
	sort.Strings(out)
	return out[0]
}

// WorkflowRefusal is GitHub's message refusing such an update of file.
func WorkflowRefusal(file string) string {
	return "refusing to allow a GitHub App to create or update workflow `" + file + "` without `workflows` permission"
}
