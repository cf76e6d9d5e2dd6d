// Package world is the fake GitHub's world: repositories with their branches, commits, trees and
// history, the issues, pull requests, reviews, comments and checks on them, and the people.
// World holds it, with the clock and the ids, and what the code under test did through the API
// (Log); People, Git and Rules change and answer its users and permissions, its git objects, and
// what protection and mergeability allow. It answers questions (history walks, merge bases,
// mergeability) for both APIs, so REST (package rest) and GraphQL (package graphql) cannot
// disagree; the JSON and webhooks are package shapes', the events package act's.
package world
