// Package setupdocs holds the tests that keep docs/setup.md and its ready-to-copy workflows
// (docs/setup/*.yml) in step with the workflows the simulator plays and with each other.
// It has no code of its own: the files it checks are the product.
package setupdocs
