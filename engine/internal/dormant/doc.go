// Package dormant decides which pipelines may start on a subject: a pipeline with
// `enabled: false` (seed 002) starts only once set_variable or `/pipeline enable` enabled it there.
// Its functions are pure over the subject's state and the config; the engine calls them.
package dormant
