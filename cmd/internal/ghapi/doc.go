// Package ghapi is the GitHub adapter: the one facts query per event, the REST calls
// that perform effects, and the backends of the state stores. It is the only package
// that imports go-github and githubv4.
package ghapi
