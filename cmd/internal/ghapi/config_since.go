package ghapi

import (
	"time"

	"github.com/shurcooL/githubv4"
)

// configLogPath is the path of the config's directory (ConfigDir), whose *.yaml files are
// part of the config, or the file's when it has none (asked twice, the same answer).
func configLogPath(configPath string) string {
	if d := ConfigDir(configPath); d != "" {
		return d
	}
	return configPath
}

// configSince is when the config last changed on the default branch (Facts.ConfigSince):
// the later of the last commits that changed its file and its directory; zero when neither
// is there.
func configSince(file, dir []struct{ CommittedDate githubv4.DateTime }) time.Time {
	var at time.Time
	for _, n := range append(file, dir...) {
		if n.CommittedDate.After(at) {
			at = n.CommittedDate.Time
		}
	}
	return at
}
