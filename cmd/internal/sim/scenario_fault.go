package sim

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
)

// faultStep makes the fake refuse calls to an operation, as GitHub sometimes does: an error
// status with a message; a rate limit, with retry_after (seconds, a secondary limit) or
// reset (seconds until the spent primary limit resets); timeout: true, a request never
// answered until the run gives up on it; or (graphql) errors, GitHub's error types in a 200.
// performed serves the call before its answer is lost. skip lets that many calls through
// first; count fails that many (default 1), until every one for that long. A fault no call
// met is dropped at the end of the next step that delivers events, unless keep or until.
type faultStep struct {
	Operation  string        `yaml:"operation"` // a REST operationId (pulls/merge) or "graphql"
	Skip       int           `yaml:"skip"`
	Status     int           `yaml:"status"`
	Message    string        `yaml:"message"`
	RetryAfter int           `yaml:"retry_after"`
	Reset      int           `yaml:"reset"`
	Timeout    bool          `yaml:"timeout"`
	Performed  bool          `yaml:"performed"`
	Errors     []string      `yaml:"errors"`
	Partial    bool          `yaml:"partial"`
	Field      string        `yaml:"field"`
	Count      int           `yaml:"count"`
	Until      time.Duration `yaml:"until"`
	Keep       bool          `yaml:"keep"`
}

// graphQLErrorTypes are the types a fault's errors may name.
func graphQLErrorTypes() []string {
	out := make([]string, 0, len(ghfake.GraphQLErrorMessages))
	for t := range ghfake.GraphQLErrorMessages {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// checkFault says what is wrong with a fault step, if anything.
func checkFault(v *faultStep) error {
	graphql := v.Operation == "graphql"
	switch {
	case v.Operation == "":
		return errors.New("fault needs an operation")
	case v.Skip < 0 || v.Count < 0 || v.Until < 0:
		return errors.New("fault: skip, count and until are not negative")
	case v.Count > 0 && v.Until > 0:
		return errors.New("fault: count fails that many calls, until every call for a while; not both")
	case v.RetryAfter < 0 || v.Reset < 0:
		return errors.New("fault: retry_after and reset are seconds, not negative")
	case !graphql && (len(v.Errors) > 0 || v.Partial || v.Field != ""):
		return errors.New("fault: errors, partial and field are for operation: graphql")
	case v.Partial && len(v.Errors) == 0:
		return errors.New("fault: partial adds errors to the data; give errors")
	case v.Timeout && (v.Status != 0 || v.Message != "" || v.RetryAfter != 0 || v.Reset != 0 || len(v.Errors) > 0):
		return errors.New("fault: timeout answers nothing; it takes no status, message, retry_after, reset or errors")
	case len(v.Errors) > 0 && (v.Status != 0 || v.RetryAfter != 0 || v.Reset != 0):
		return errors.New("fault: errors are answered in a 200; they take no status, retry_after or reset")
	case v.Timeout || len(v.Errors) > 0:
	case v.Status < 400 && (v.Status != 200 || !graphql): // 200: GraphQL's RATE_LIMITED
		return errors.New("fault needs a status of 400 or more (200 for graphql: a RATE_LIMITED error), errors (graphql), or timeout: true")
	}
	for _, t := range v.Errors {
		if _, ok := ghfake.GraphQLErrorMessages[t]; !ok {
			msg := fmt.Sprintf("fault: unknown GraphQL error type %q", t)
			if s := lang.Suggest(t, graphQLErrorTypes()); s != "" {
				return fmt.Errorf("%s; did you mean %q?", msg, s)
			}
			return fmt.Errorf("%s; expected one of %s", msg, strings.Join(graphQLErrorTypes(), ", "))
		}
	}
	return nil
}

// applyFault queues the fault of step n in the fake and returns the step's label.
func (s *simulation) applyFault(n int, v *faultStep) (string, error) {
	if err := checkFault(v); err != nil {
		return "", err
	}
	f := ghfake.Fault{Status: v.Status, Message: v.Message, RetryAfter: v.RetryAfter, Reset: v.Reset, Timeout: v.Timeout,
		Skip: v.Skip, Performed: v.Performed, Errors: v.Errors, Partial: v.Partial, Field: v.Field, Count: v.Count}
	if v.Status != 0 && f.Message == "" {
		f.Message = http.StatusText(v.Status)
	}
	if v.Until > 0 {
		f.Until = s.clock.now().Add(v.Until)
	}
	if !v.Keep && v.Until == 0 {
		f.Tag = fmt.Sprintf("step %d", n)
		s.pendingFaults = append(s.pendingFaults, f.Tag)
	}
	s.fake.Inject(v.Operation, f)
	return faultLabel(v, f), nil
}

// faultLabel says what the fault does, for its step's line.
func faultLabel(v *faultStep, f ghfake.Fault) string {
	which := "the next " + v.Operation
	switch {
	case v.Until > 0:
		which = fmt.Sprintf("every %s until %s", v.Operation, f.Until.Format(time.RFC3339))
	case v.Count > 1:
		which = fmt.Sprintf("the next %d %s calls", v.Count, v.Operation)
	}
	if v.Field != "" {
		which += " selecting " + v.Field
	}
	which += skipped(v.Skip)
	one := func(singular, many string) string { return map[bool]string{true: singular, false: many}[v.Count <= 1] }
	var answer string
	switch {
	case v.Timeout:
		answer = one("is", "are") + " never answered"
	case len(v.Errors) > 0 && v.Partial:
		answer = fmt.Sprintf("%s its data with the errors %s", one("answers", "answer"), strings.Join(v.Errors, ", "))
	case len(v.Errors) > 0:
		answer = fmt.Sprintf("%s 200 with the errors %s", one("answers", "answer"), strings.Join(v.Errors, ", "))
	default:
		answer = fmt.Sprintf("%s %d", one("answers", "answer"), v.Status)
	}
	if v.Performed {
		answer = one("is", "are") + " performed, then " + strings.Replace(answer, one("is", "are")+" never answered", "never answered", 1)
	}
	label := "fault: " + which + " " + answer
	if v.RetryAfter > 0 {
		label += fmt.Sprintf(", retry-after %ds", v.RetryAfter)
	}
	if v.Reset > 0 {
		label += fmt.Sprintf(", rate limit spent until %ds from now", v.Reset)
	}
	if v.Keep {
		label += " (kept until met)"
	}
	return label
}

// dropFaults drops what is left of the faults queued before a step that delivered events:
// a fault meets the calls of the step after it, not a later step's.
func (s *simulation) dropFaults() {
	for _, tag := range s.pendingFaults {
		if k := s.fake.DropFaults(tag); k > 0 {
			fmt.Fprintf(s.out, "   (the fault of %s is dropped: the calls after it did not use it up)\n", tag)
		}
	}
	s.pendingFaults = nil
}

// skipped says how many calls a fault lets through first, for its step's label.
func skipped(skip int) string {
	if skip == 0 {
		return ""
	}
	return fmt.Sprintf(" after %d %s served", skip, map[bool]string{true: "call", false: "calls"}[skip == 1])
}
