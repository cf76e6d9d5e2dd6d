package ghapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// A token without a scope the action needs meets GitHub's "Resource not accessible by
// integration", which says neither what was refused nor which scope is missing; and
// githubv4 turns a GraphQL answer with any error into a failure that keeps only the first
// message. scopeTransport rewrites such refusals so that the failure says which scope the
// workflow's `permissions:` block must grant: over REST from GitHub's
// X-Accepted-GitHub-Permissions header, over GraphQL from the error's path.

const notAccessible = "Resource not accessible by integration"

// PermissionsHelp is where the README lists the scopes the action needs and why.
const PermissionsHelp = "see the README's permissions table"

type scopeTransport struct{ base http.RoundTripper }

func (t *scopeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	graphql := strings.HasSuffix(r.URL.Path, "/graphql")
	accepted := resp.Header.Get("X-Accepted-GitHub-Permissions")
	if !(graphql && resp.StatusCode == http.StatusOK) && !(resp.StatusCode == http.StatusForbidden && accepted != "") {
		return resp, nil
	}
	what := r.Method + " " + r.URL.Path
	resp.Body = &explainBody{rc: resp.Body, fix: func(data []byte) []byte {
		if !bytes.Contains(data, []byte(notAccessible)) {
			return nil
		}
		if graphql {
			return explainGraphQL(data)
		}
		return explainREST(data, what, accepted)
	}}
	resp.ContentLength = -1
	resp.Header.Del("Content-Length")
	return resp, nil
}

// explainBody reads the whole body at its first read (not in RoundTrip, so that the
// request's timeout still bounds a body that stalls) and rewrites it with fix.
type explainBody struct {
	rc  io.ReadCloser
	fix func([]byte) []byte
	r   *bytes.Reader
}

func (b *explainBody) Read(p []byte) (int, error) {
	if b.r == nil {
		data, err := io.ReadAll(b.rc)
		if err != nil {
			return 0, err
		}
		if out := b.fix(data); out != nil {
			data = out
		}
		b.r = bytes.NewReader(data)
	}
	return b.r.Read(p)
}

func (b *explainBody) Close() error { return b.rc.Close() }

// explainREST adds to a 403's message the scopes GitHub says the endpoint accepts.
func explainREST(data []byte, what, accepted string) []byte {
	var body map[string]any
	if json.Unmarshal(data, &body) != nil {
		return nil
	}
	body["message"] = notAccessible + " (" + what + "): the token lacks " + workflowScopes(accepted) +
		"; grant it in the workflow's `permissions:` block (" + PermissionsHelp + ")"
	out, err := json.Marshal(body)
	if err != nil {
		return nil
	}
	return out
}

// workflowScopes turns "issues=write; pull_requests=write" into "`issues: write` or
// `pull-requests: write`", as a workflow's permissions: block names them.
func workflowScopes(accepted string) string {
	var alts []string
	for _, set := range strings.Split(accepted, ";") {
		var all []string
		for _, item := range strings.Split(set, ",") {
			scope, access, _ := strings.Cut(strings.TrimSpace(item), "=")
			if scope != "" {
				all = append(all, "`"+strings.ReplaceAll(scope, "_", "-")+": "+access+"`")
			}
		}
		if len(all) > 0 {
			alts = append(alts, strings.Join(all, " and "))
		}
	}
	return strings.Join(alts, " or ")
}

// pathScopes names the scope a refused GraphQL field needs by the nearest field of its
// path that tells: the last match from the end of the path wins.
var pathScopes = []struct{ field, scope string }{
	{"workflowRun", "`actions: read`"},
	{"checkSuite", "`checks: read`"},
	{"checkSuites", "`checks: read`"},
	{"checkRuns", "`checks: read`"},
	{"contexts", "`statuses: read` (for a commit status) or `checks: read` (for a check run)"},
	{"statusCheckRollup", "`statuses: read` and `checks: read`"},
	{"createCommitOnBranch", "`contents: write`"},
	{"createRef", "`contents: write`"},
	{"deleteRef", "`contents: write`"},
	{"updateRef", "`contents: write`"},
	{"addComment", "`pull-requests: write` (`issues: write` for issues)"},
	{"updateIssueComment", "`pull-requests: write` (`issues: write` for issues)"},
	{"object", "`contents: read`"},
	{"pullRequest", "`pull-requests: read`"},
	{"pullRequests", "`pull-requests: read`"},
	{"issue", "`issues: read`"},
	{"issues", "`issues: read`"},
}

// scopeOfPath is the scope pathScopes names for path, or a pointer to the README.
func scopeOfPath(path []any) string {
	for i := len(path) - 1; i >= 0; i-- {
		name, _ := path[i].(string)
		for _, ps := range pathScopes {
			if ps.field == name {
				return ps.scope
			}
		}
	}
	return "a scope the action needs"
}

// explainGraphQL rewrites the message of every FORBIDDEN error of a GraphQL answer to say
// where GitHub refused and which scopes all the refusals need together: githubv4 reports
// only the first.
func explainGraphQL(data []byte) []byte {
	var body map[string]json.RawMessage
	if json.Unmarshal(data, &body) != nil || body["errors"] == nil {
		return nil
	}
	var errs []map[string]any
	if json.Unmarshal(body["errors"], &errs) != nil {
		return nil
	}
	var need []string
	var where []string
	for _, e := range errs {
		if e["type"] != "FORBIDDEN" && e["message"] != notAccessible {
			continue
		}
		path, _ := e["path"].([]any)
		if s := scopeOfPath(path); !slices.Contains(need, s) {
			need = append(need, s)
		}
		where = append(where, joinPath(path))
	}
	if len(where) == 0 {
		return nil
	}
	msg := notAccessible + " at " + strings.Join(where, ", ") + ": the token lacks " + strings.Join(need, " and ") +
		"; grant it in the workflow's `permissions:` block (" + PermissionsHelp + ")"
	for _, e := range errs {
		if e["type"] == "FORBIDDEN" || e["message"] == notAccessible {
			e["message"] = msg
		}
	}
	raw, err := json.Marshal(errs)
	if err != nil {
		return nil
	}
	body["errors"] = raw
	out, err := json.Marshal(body)
	if err != nil {
		return nil
	}
	return out
}

func joinPath(path []any) string {
	parts := make([]string, len(path))
	for i, p := range path {
		switch x := p.(type) {
		case string:
			parts[i] = x
		case float64:
			parts[i] = strconv.Itoa(int(x))
		}
	}
	return strings.Join(parts, ".")
}
