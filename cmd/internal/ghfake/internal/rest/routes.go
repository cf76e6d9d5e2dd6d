package rest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/routes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
)

// DocsURL is the documentation_url GitHub puts in error bodies.
const DocsURL = "https://docs.github.com/rest"

// operation is one documented REST operation.
type operation = routes.Operation

// Route finds the documented operation for the request's method and path, and its path parameters
// (unescaped). A path that matches only with another method is an error too: GitHub answers 404.
func Route(r *http.Request) (operation, map[string]string, error) {
	return routes.Match(Operations, r.Method, strings.TrimPrefix(r.URL.EscapedPath(), shapes.APIPrefix))
}

// NotFound is GitHub's 404 body.
func NotFound() map[string]any {
	return map[string]any{"message": "Not Found", "documentation_url": DocsURL, "status": "404"}
}

// WriteJSON writes v as the JSON body with status code.
func WriteJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	if v == nil {
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// ErrorBody is GitHub's error body with a message.
func ErrorBody(message string) map[string]any {
	return map[string]any{"message": message, "documentation_url": DocsURL}
}

// Bearer is the token of the request's Authorization header, "" when there is none.
func Bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	for _, p := range []string{"Bearer ", "bearer ", "token ", "Token "} {
		if strings.HasPrefix(h, p) {
			return strings.TrimSpace(h[len(p):])
		}
	}
	return ""
}
