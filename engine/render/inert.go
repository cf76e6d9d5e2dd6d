package render

import "strings"

// InertMarkers keeps text that may hold what others wrote (a PR's title) from carrying an
// HTML comment into the action's own comment, where a forged state or effect marker would
// be read as the action's word: "<!--" is written "&lt;!--".
func InertMarkers(s string) string {
	return strings.ReplaceAll(s, "<!--", "&lt;!--")
}
