package searchtool

import (
	"context"
	"math"
	"runtime/debug"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
)

// The memory limit is set from the live heap once an index is open, lifted
// while an index builds or applies changes until it is settled again, and
// left alone when the user set GOMEMLIMIT.
func TestMemoryLimit(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64); memory.limit, memory.lifted = 0, false })
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
	limit := current()
	if limit == math.MaxInt64 || limit < 32<<20 {
		t.Errorf("limit after settling: %d", limit)
	}

	liftMemoryLimit()
	if current() != math.MaxInt64 {
		t.Errorf("changes being applied did not lift the limit: %d", current())
	}
	keepMemoryLimit()
	if current() != limit {
		t.Errorf("limit after changes that changed nothing: %d, want %d", current(), limit)
	}
	endBuild = buildStarts()
	if current() != math.MaxInt64 {
		t.Errorf("a build did not lift the limit: %d", current())
	}
	keepMemoryLimit()
	if current() != math.MaxInt64 {
		t.Errorf("the limit came back during a build: %d", current())
	}
	endBuild()

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	memory.limit, memory.lifted = 0, false
	settleMemory()
	if current() != math.MaxInt64 {
		t.Errorf("the user's GOMEMLIMIT was overridden: %d", current())
	}
	if got := memoryLimit(250<<20, 200<<20); got != 300<<20 {
		t.Errorf("limit for a 200 MiB heap in 250 MiB: %d MiB", got>>20)
	}
}

// A build from nothing follows a limit of its own, from the live heap, and
// lifts it when it ends; outside a build, or when the user set GOMEMLIMIT,
// buildProgress leaves the limit alone.
func TestBuildMemoryLimit(t *testing.T) {
	t.Cleanup(func() {
		debug.SetMemoryLimit(math.MaxInt64)
		memory.limit, memory.lifted, memory.building = 0, false, false
	})
	current := func() int64 { return debug.SetMemoryLimit(-1) }
	t.Setenv("GOMEMLIMIT", "")

	buildProgress()
	if current() != math.MaxInt64 {
		t.Errorf("a build's limit was set with no build under way: %d", current())
	}
	endBuild := buildStarts()
	buildProgress()
	if got := current(); got == math.MaxInt64 || got < 384<<20 {
		t.Errorf("limit during a build: %d", got)
	}
	endBuild()
	if current() != math.MaxInt64 {
		t.Errorf("the build's limit stayed after it: %d", current())
	}
	settleMemory()
	settled := current()
	endBuild = buildStarts()
	buildProgress()
	endBuild()
	if current() != math.MaxInt64 || !memory.lifted {
		t.Errorf("after a rebuild the limit is %d (lifted %v), want lifted until settled", current(), memory.lifted)
	}
	keepMemoryLimit()
	if current() != settled {
		t.Errorf("limit kept after a rebuild: %d, want %d", current(), settled)
	}

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	endBuild = buildStarts()
	buildProgress()
	endBuild()
	if current() != math.MaxInt64 {
		t.Errorf("the user's GOMEMLIMIT was overridden during a build: %d", current())
	}
	if got := buildLimit(1 << 30); got != 3<<29 {
		t.Errorf("build limit for a 1 GiB heap: %d MiB", got>>20)
	}
	if got := buildLimit(100 << 20); got != 484<<20 {
		t.Errorf("build limit for a 100 MiB heap: %d MiB", got>>20)
	}
}

// `agentos index` builds and saves under a build's limit, as the server
// does: without one the runtime let the heap double over the built index
// while its snapshot was encoded.
func TestLocalBuildMemoryLimit(t *testing.T) {
	t.Cleanup(func() {
		debug.SetMemoryLimit(math.MaxInt64)
		memory.limit, memory.lifted, memory.building = 0, false, false
	})
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	limits := map[string]int64{}
	l, err := OpenLocal(context.Background(), newProject(t), config.Default(), LocalOptions{Code: true, Rebuild: true,
		Progress: func(pr Progress) { limits[pr.Phase] = debug.SetMemoryLimit(-1) }})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if got := limits["saving"]; got == math.MaxInt64 || got < 384<<20 {
		t.Errorf("limit while saving a build: %d", got)
	}
	if got := limits["done"]; got != math.MaxInt64 {
		t.Errorf("the build's limit stayed after it: %d", got)
	}
}
