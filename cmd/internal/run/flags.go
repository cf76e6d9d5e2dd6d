package run

// The command line's flag handling, shared by every command: those of one invocation
// (report, sweep) parse theirs here, and so do cli and sim.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// NewFlagSet returns a flag set that prints its errors on stderr and leaves the usage
// to ParseFlags.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {}
	return fl
}

// ParseFlags parses args with fl, flags wherever they stand among the positional
// arguments ("validate a.yaml --strict b.yaml"), and returns the positional ones. With
// -h or --help it prints usage on stdout and returns exit code 0; with a bad flag, the
// error and usage on stderr and exit code 2; ok is false in both cases.
func ParseFlags(fl *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (rest []string, code int, ok bool) {
	for {
		err := fl.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprint(stdout, usage)
			return nil, 0, false
		case err != nil:
			if hint := flagHint(fl, err); hint != "" {
				fmt.Fprintln(stderr, hint)
			}
			fmt.Fprint(stderr, usage)
			return nil, 2, false
		}
		if fl.NArg() == 0 {
			return rest, 0, true
		}
		rest, args = append(rest, fl.Arg(0)), fl.Args()[1:]
	}
}

// flagHint is a "did you mean" for a flag fl does not define, or "".
func flagHint(fl *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	fl.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s := lang.Suggest(name, names); s != "" {
		return fmt.Sprintf("did you mean --%s?", s)
	}
	return ""
}
