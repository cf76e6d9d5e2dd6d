package state

import "testing"

// BenchmarkThousandGateStateFile encodes the state file of a run through 1,000 gates of
// three checks each and reports its bytes: the figure the README's table holds to 64 KB.
func BenchmarkThousandGateStateFile(b *testing.B) {
	_, st := gatesRun(b, 1000)
	var size int
	for b.Loop() {
		file, err := EncodeFile(st)
		if err != nil {
			b.Fatal(err)
		}
		size = len(file)
	}
	b.ReportMetric(float64(size), "bytes/file")
}
