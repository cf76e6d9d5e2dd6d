// Package ghfake is an in-memory GitHub: a REST (under /api/v3/, GHES-style) and GraphQL
// (POST /api/graphql) HTTP server over a small world of repositories, pull requests, issues,
// reviews, checks and comments. Tests and the simulate command change the world through Go methods
// that return the webhook event GitHub would send; the code under test talks to it over HTTP.
//
// The fake is loud: a request for a route that is not a documented operation, a GraphQL document
// that GitHub's schema rejects, or a field the fake does not implement is answered as GitHub would
// (404, a GraphQL error) and recorded in Unexpected, which fails tests built with faketest.New.
//
// The server itself only authenticates, routes, records and injects faults and limits. What it
// serves is one world model (internal/world) with two thin views on it: the REST handlers
// (internal/rest) and the GraphQL resolvers (internal/graphql). Changes made through the Go API
// (internal/act) return the webhook payloads internal/shapes builds.
package ghfake
