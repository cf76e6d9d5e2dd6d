package state

import (
	"testing"

	"github.com/org/pipeline-action/engine"
)

func benchState() *engine.State {
	return &engine.State{Version: 1, Subject: "acme/widgets#7", Runs: []*engine.Run{waitingRun(), completedRun()}}
}

// BenchmarkBody measures rendering the comment and encoding the state, done once per
// event that changes something.
func BenchmarkBody(b *testing.B) {
	cfg, st := testConfig(), benchState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Body(cfg, st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode measures reading the state from the comment, done on every event.
func BenchmarkDecode(b *testing.B) {
	body, err := Body(testConfig(), benchState())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok, err := Decode(body); err != nil || !ok {
			b.Fatal("no state", err)
		}
	}
}
