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

// routeDispatch routes a workflow_dispatch of the action's workflow, r as route has read
// it so far: to the subject its inputs name, or not handled when it names none.
func routeDispatch(r routed, inputs map[string]any) (routed, error) {
	n, name, handled, err := dispatchInputs(inputs)
	switch {
	case err != nil:
		return routed{}, err
	case !handled:
		return routed{Event: r.Event}, nil // a dispatch for something else
	case r.Repo == "":
		return routed{}, fmt.Errorf("workflow_dispatch payload has no repository.full_name")
	}
	r.Numbers, r.Pipeline = []int{n}, name
	return r, nil
}

// commentID is the id of the comment an issue_comment payload carries, or 0.
func (p *payload) commentID() int64 {
	if p.Comment == nil {
		return 0
	}
	return p.Comment.ID
}
