//go:build deps

// Package deps pins the libraries the project builds on, so that go.mod lists them
// before every package imports them.
package deps

import (
	_ "github.com/expr-lang/expr"
	_ "github.com/google/go-github/v60/github"
	_ "github.com/sethvargo/go-githubactions"
	_ "github.com/shurcooL/githubv4"
	_ "github.com/stretchr/testify/require"
	_ "github.com/vektah/gqlparser/v2"
	_ "golang.org/x/oauth2"
	_ "gopkg.in/yaml.v3"
)
