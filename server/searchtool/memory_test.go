package searchtool

import (
	"math"
	"runtime/debug"
	"testing"
)

// The memory limit is set from the live heap once an index is open, lifted
// while one builds, and left alone when the user set GOMEMLIMIT.
func TestMemoryLimit(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64); memory.limiting = false })
	current := func() int64 { return debug.SetMemoryLimit(-1) }

	t.Setenv("GOMEMLIMIT", "")
	endBuild := buildStarts()
	settleMemory()
	if current() != math.MaxInt64 {
		t.Errorf("a limit was set during a build: %d", current())
	}
	endBuild()
	endBuild() // a second call must not end another build
	if memory.builds != 0 {
		t.Fatalf("builds under way: %d", memory.builds)
	}
	settleMemory()
	if l := current(); l == math.MaxInt64 || l < 16<<20 {
		t.Errorf("limit after settling: %d", l)
	}
	endBuild = buildStarts()
	if current() != math.MaxInt64 {
		t.Errorf("a build did not lift the limit: %d", current())
	}
	endBuild()

	t.Setenv("GOMEMLIMIT", "1GiB")
	settleMemory()
	if current() != math.MaxInt64 {
		t.Errorf("the user's GOMEMLIMIT was overridden: %d", current())
	}
	if got := memoryLimit(200 << 20); got != 225<<20 {
		t.Errorf("limit for a 200 MiB heap: %d MiB", got>>20)
	}
}
