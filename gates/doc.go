// Package gates holds the built-in checks a gate stage can name in `check:`, one file each,
// and the registry the loader finds them in. Checks are pure: they read engine.Facts and
// say, in a sentence, what holds, what is missing and who can change it.
package gates
