// Package linkcheck holds tests over the repository as a whole: that it stands alone, with no
// link or path leading out of it. It has no code of its own.
package linkcheck
