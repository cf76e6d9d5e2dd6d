package main

import (
	"fmt"
	"strconv"
)

// floorRatio measures bench and floor, two benchmarks of dir, in one run on the same machine,
// and gives bench's time as a ratio to floor's: a figure that cannot go stale with the
// machine, since both move with it.
// env is the environment the two run with, besides the machine's.
func floorRatio(dir, bench, floor string, env ...string) func(*lab) (string, error) {
	return func(l *lab) (string, error) {
		run := &benchRun{dir: dir, names: []string{bench, floor}, benchtime: l.benchtime, count: l.count, env: env}
		res, err := l.benchmarks(run)
		if err != nil {
			return "", err
		}
		b, okB := res[dir+"/"+bench]
		f, okF := res[dir+"/"+floor]
		if !okB || !okF || f.nsPerOp == 0 {
			return "", fmt.Errorf("%s and %s of %s did not both report", bench, floor, dir)
		}
		return ratioText(b, f), nil
	}
}

// ratioText is b as a ratio to its floor f, with both times.
func ratioText(b, f benchResult) string {
	return strconv.FormatFloat(b.nsPerOp/f.nsPerOp, 'f', 2, 64) + "× its floor (" + duration(b.nsPerOp) + " against " + duration(f.nsPerOp) + ")"
}
