package searchtool

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// The Go runtime lets the heap grow to twice what is live before it collects
// and is slow to give freed memory back. With a large index loaded that
// nearly doubles the server's memory after a few searches, for garbage. So
// once an index is open the server sets a soft memory limit (unless the user
// set GOMEMLIMIT) of what is live and an eighth as much again (at least 16 MiB), room for the
// garbage of searches, and lifts it while an index builds, when most of what
// is allocated stays. Each save, and a graph query that resolves the call
// graph, sets it again from what is live then.
var memory struct {
	mu       sync.Mutex
	builds   int  // builds under way
	limiting bool // a limit of ours is set
}

// memoryLimit is the limit for a live heap of so many bytes.
func memoryLimit(live uint64) int64 { return int64(live + max(live/8, 16<<20)) }

// settleMemory returns the garbage of opening or changing a large index to
// the operating system and sets the limit from what stays.
func settleMemory() {
	memory.mu.Lock()
	defer memory.mu.Unlock()
	debug.FreeOSMemory()
	if memory.builds > 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(memoryLimit(ms.HeapAlloc))
	memory.limiting = true
}

// buildStarts lifts our limit for the length of a build; the returned
// function ends the build (once, however often it is called).
func buildStarts() (done func()) {
	memory.mu.Lock()
	memory.builds++
	if memory.limiting {
		debug.SetMemoryLimit(math.MaxInt64)
		memory.limiting = false
	}
	memory.mu.Unlock()
	return sync.OnceFunc(func() {
		memory.mu.Lock()
		memory.builds--
		memory.mu.Unlock()
	})
}
