// Package schema holds the tests that keep pipelines.schema.json, the JSON Schema editors
// use for .github/pipelines.yaml, in step with the loader in engine: every example config
// passes both, and every mistake that is a schema matter is rejected by both.
package schema
