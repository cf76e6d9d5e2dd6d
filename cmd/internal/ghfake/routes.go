package ghfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// restPrefix is where REST is served, as on GitHub Enterprise Server.
const restPrefix = "/api/v3"

// docsURL is the documentation_url GitHub puts in error bodies.
const docsURL = "https://docs.github.com/rest"

// operation is one documented REST operation.
type operation struct {
	OperationID string
	Method      string
	Path        string
	Codes       []int
}

// greedyParams may span several path segments when they end a template (git refs, file paths,
// base...head).
var greedyParams = map[string]bool{"ref": true, "path": true, "basehead": true}

// route finds the documented operation for the request's method and path, and its path parameters
// (unescaped). A path that matches only with another method is an error too: GitHub answers 404.
func route(r *http.Request) (operation, map[string]string, error) {
	raw := strings.TrimPrefix(r.URL.EscapedPath(), restPrefix)
	raw = strings.TrimSuffix(raw, "/")
	segs := strings.Split(strings.TrimPrefix(raw, "/"), "/")
	var best *operation
	var bestParams map[string]string
	bestScore := -1
	var otherMethods []string
	for i := range operations {
		op := &operations[i]
		params, score, ok := matchPath(op.Path, segs)
		if !ok {
			continue
		}
		if op.Method != r.Method {
			otherMethods = append(otherMethods, op.Method+" "+op.OperationID)
			continue
		}
		if score > bestScore {
			best, bestParams, bestScore = op, params, score
		}
	}
	if best == nil {
		if len(otherMethods) > 0 {
			return operation{}, nil, fmt.Errorf("method not allowed (the path serves %s)", strings.Join(otherMethods, ", "))
		}
		return operation{}, nil, fmt.Errorf("no documented operation has this path")
	}
	return *best, bestParams, nil
}

// matchPath matches path segments against a template; the score counts literal segments, so the
// most specific template wins.
func matchPath(tmpl string, segs []string) (map[string]string, int, bool) {
	tsegs := strings.Split(strings.TrimPrefix(tmpl, "/"), "/")
	params := map[string]string{}
	score := 0
	for i, t := range tsegs {
		if i >= len(segs) {
			return nil, 0, false
		}
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			name := t[1 : len(t)-1]
			val := segs[i]
			if i == len(tsegs)-1 && greedyParams[name] {
				val = strings.Join(segs[i:], "/")
				segs = segs[:i+1]
			}
			v, err := url.PathUnescape(val)
			if err != nil || v == "" {
				return nil, 0, false
			}
			params[name] = v
			continue
		}
		if t != segs[i] {
			return nil, 0, false
		}
		score++
	}
	if len(segs) != len(tsegs) {
		return nil, 0, false
	}
	return params, score, true
}

// notFound is GitHub's 404 body.
func notFound() map[string]any {
	return map[string]any{"message": "Not Found", "documentation_url": docsURL, "status": "404"}
}

// writeJSON writes v as the JSON body with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	if v == nil {
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// errorBody is GitHub's error body with a message.
func errorBody(message string) map[string]any {
	return map[string]any{"message": message, "documentation_url": docsURL}
}
