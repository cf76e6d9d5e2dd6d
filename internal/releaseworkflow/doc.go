// Package releaseworkflow holds the tests of the release workflow
// (.github/workflows/release.yml): its permissions, and its scripts run against a
// local git remote, so the tags it moves are checked before a release moves them.
package releaseworkflow
