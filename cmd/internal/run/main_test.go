package run

import (
	"context"
	"io"
	"time"
)

// testMain runs a command of one invocation as the command line does: run (also when no
// command is given, as inside Actions), report and sweep.
func testMain(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return testMainAt(nil, args, stdin, stdout, stderr, getenv)
}

// testMainAt is testMain with the runner's clock now (nil: the machine's).
func testMainAt(now func() time.Time, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if now == nil {
		now = time.Now
	}
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	if cmd == "" {
		cmd = getenv("INPUT_COMMAND")
	}
	r := &Runner{Getenv: getenv, Out: stdout, Now: now}
	ctx := context.Background()
	switch cmd {
	case "", "run":
		return r.Run(ctx)
	case "report":
		return r.ReportCommand(ctx, args, stdin, stdout, stderr)
	case "sweep":
		return r.SweepMain(ctx, args, stdout, stderr)
	}
	panic("testMain: no command " + cmd)
}
