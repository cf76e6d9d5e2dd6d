// Package releaseworkflow holds the tests of the release workflow
// (.github/workflows/release.yml): its trigger and permissions, the SHA pins of every
// workflow's actions, and its scripts run against a local git remote, so that the tags it
// creates and the one it moves are checked before a release does either.
package releaseworkflow
