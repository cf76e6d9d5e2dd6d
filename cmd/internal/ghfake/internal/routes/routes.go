// Package routes matches REST requests against a table of documented operations (path
// templates with parameters, the most specific template winning).
package routes

import (
	"fmt"
	"net/url"
	"strings"
)

// Operation is one documented REST operation.
type Operation struct {
	OperationID string
	Method      string
	Path        string
	Codes       []int
}

// greedyParams may span several path segments when they end a template (git refs, file paths,
// base...head).
var greedyParams = map[string]bool{"ref": true, "path": true, "basehead": true}

// Match finds the operation of ops for method and the escaped path (below the API's prefix), and
// its path parameters (unescaped). A path that matches only with another method is an error too:
// GitHub answers 404.
func Match(ops []Operation, method, escapedPath string) (Operation, map[string]string, error) {
	raw := strings.TrimSuffix(escapedPath, "/")
	segs := strings.Split(strings.TrimPrefix(raw, "/"), "/")
	var best *Operation
	var bestParams map[string]string
	bestScore := -1
	var otherMethods []string
	for i := range ops {
		op := &ops[i]
		params, score, ok := matchPath(op.Path, segs)
		if !ok {
			continue
		}
		if op.Method != method {
			otherMethods = append(otherMethods, op.Method+" "+op.OperationID)
			continue
		}
		if score > bestScore {
			best, bestParams, bestScore = op, params, score
		}
	}
	if best == nil {
		if len(otherMethods) > 0 {
			return Operation{}, nil, fmt.Errorf("method not allowed (the path serves %s)", strings.Join(otherMethods, ", "))
		}
		return Operation{}, nil, fmt.Errorf("no documented operation has this path")
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
