// Package seedtable holds the test of docs/language.md's table of constructs: every row says
// which seed it comes from and whether it runs, and every scenario, example and test it names
// as showing it exists.
package seedtable
