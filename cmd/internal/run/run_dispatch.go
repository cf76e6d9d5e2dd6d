package run

import (
	"fmt"
	"strconv"
	"strings"
)

// dispatchInputs reads the inputs of a workflow_dispatch of the action's workflow: the
// pipeline to start and the number of the pull request or issue to start it on. GitHub
// sends the inputs as strings (a number input's too, in some payloads as a number); "#7"
// is taken for 7. A dispatch with neither input is not one of those (handled false).
func dispatchInputs(in map[string]any) (n int, pipeline string, handled bool, err error) {
	_, hasName := in["pipeline"]
	if _, hasNumber := in["number"]; !hasName && !hasNumber {
		return 0, "", false, nil
	}
	name, _ := in["pipeline"].(string)
	name = strings.TrimSpace(name)
	switch v := in["number"].(type) {
	case string:
		n, _ = strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(v), "#"))
	case float64:
		if v == float64(int(v)) {
			n = int(v)
		}
	}
	if name == "" || n <= 0 {
		return 0, "", true, fmt.Errorf("a workflow_dispatch of the pipelines workflow starts a pipeline: it needs the inputs pipeline (a pipeline's name) and number (a pull request's or issue's), and has pipeline %q, number %v", name, in["number"])
	}
	return n, name, true, nil
}
