// Package load reads the pipeline language from YAML into the model of package lang:
// every mistake with its file, line and column, conditions compiled by the gate registry
// it is given, and the validation passes over the whole config once it has loaded.
package load
