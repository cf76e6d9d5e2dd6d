package ghfake

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/routes"
)

// restPrefix is where REST is served, as on GitHub Enterprise Server.
const restPrefix = "/api/v3"

// docsURL is the documentation_url GitHub puts in error bodies.
const docsURL = "https://docs.github.com/rest"

// operation is one documented REST operation.
type operation = routes.Operation

// route finds the documented operation for the request's method and path, and its path parameters
// (unescaped). A path that matches only with another method is an error too: GitHub answers 404.
func route(r *http.Request) (operation, map[string]string, error) {
	return routes.Match(operations, r.Method, strings.TrimPrefix(r.URL.EscapedPath(), restPrefix))
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
