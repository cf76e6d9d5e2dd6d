// Package world is the fake GitHub's model of what it serves: repositories with their branches,
// commits, trees and history, and the issues, pull requests, reviews, comments and checks on them.
// It answers questions about that model (history walks, merge bases, mergeability) and leaves
// HTTP, GraphQL and webhooks to package ghfake.
package world
