// Package repofiles holds the tests of the files that keep the repository: Dependabot's
// config, the issue forms, the pull request template and CONTRIBUTING.md, whose paths and
// commands must name what exists.
package repofiles
