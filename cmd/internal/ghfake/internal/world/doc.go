// Package world is the fake GitHub's world: repositories with their branches, commits, trees and
// history, the issues, pull requests, reviews, comments and checks on them, and the people.
// World holds it, changes it as GitHub's users and GitHub do, and answers questions about it
// (history walks, merge bases, mergeability); HTTP, GraphQL and webhooks are package ghfake's.
package world
