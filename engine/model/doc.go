// Package model is the plain data every part of the evaluator and its shell shares: the
// state and its runs, the facts read from GitHub, the input of an event, the effects asked
// for and their intents, deadlines and the result of an evaluation. It holds no evaluator:
// its functions derive values from the data and change nothing but what they are given.
package model
