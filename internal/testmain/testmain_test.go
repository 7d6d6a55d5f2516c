package testmain

import (
	"flag"
	"testing"
)

// WaitingParallel raises -test.parallel, but never over what the command
// line asked for (go test -parallel 3 ./internal/testmain keeps 3), and not
// under the race detector.
func TestWaitingParallel(t *testing.T) {
	f := flag.Lookup("test.parallel")
	before := f.Value.String()
	t.Cleanup(func() { f.Value.Set(before) })
	fromCommandLine := false
	flag.Visit(func(f *flag.Flag) { fromCommandLine = fromCommandLine || f.Name == "test.parallel" })

	WaitingParallel("8")
	want := "8"
	if fromCommandLine || raceDetector {
		want = before
	}
	if got := f.Value.String(); got != want {
		t.Errorf("-test.parallel is %s, want %s (set on the command line: %v)", got, want, fromCommandLine)
	}
}
