package searchtool

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The Go runtime lets the heap grow to twice what is live before it collects
// and is slow to give freed memory back. With a large index loaded that
// nearly doubles the server's memory after a few searches, for garbage. So
// once an index is open the server sets a soft memory limit (unless the user
// set GOMEMLIMIT): what the process holds once the garbage is returned, plus
// a quarter of the live heap (at least 32 MiB), room for the garbage of a few
// dozen searches between two collections. (Much less makes the collector,
// which marks the whole index, run every few searches and slows them down
// several times. A quarter was half until the index's largest parts —
// postings, vectors, the encoded graph facts — became arrays without
// pointers, which the collector does not look into. The limit counts all
// the runtime's memory, fragmentation included, which after a first build
// is well above the live heap.)
//
// Indexing allocates much more, and keeps some: under the limit the
// collector would run over and over while a saved file is reindexed. So the
// limit is lifted while an index applies changes and set again from what is
// live when the index is saved (after a build, and once the files have been
// quiet for a while after changes): the garbage of editing is trimmed then,
// not between two saves of a file. A graph query that resolves the call
// graph sets it again too.
//
// A build from nothing follows its own limit instead (buildProgress): the
// live heap and half as much again (at least 384 MiB more, so that a build's
// first batches, with little live, do not collect over and over), set after
// each batch. Without one, the
// runtime let a monorepo's build (26k files, an index of 500 MB) reach 2.6
// GB: the heap grew to twice what was live, and the memory its collections
// freed went back to the system only slowly. The half is room enough for a
// batch's garbage, so the collector runs about as often as without a limit.
var memory struct {
	mu     sync.Mutex
	builds int   // builds under way
	limit  int64 // our limit; 0 while none is set
	lifted bool  // our limit is lifted
	// building says a build's limit is set (buildProgress).
	building bool
}

// buildLimit is the limit during a build with live bytes of live heap.
func buildLimit(live uint64) int64 { return int64(live + max(live/2, 384<<20)) }

// memoryLimit is the limit for a process that holds used bytes (what the
// runtime counts against the limit: the heap with its fragmentation, stacks
// and the runtime's own structures) of which live are live heap objects.
func memoryLimit(used, live uint64) int64 { return int64(used + max(live/4, 32<<20)) }

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
	memory.limit, memory.lifted = memoryLimit(ms.Sys-ms.HeapReleased, ms.HeapAlloc), false
	debug.SetMemoryLimit(memory.limit)
}

// liftMemoryLimit lifts our limit until settleMemory or keepMemoryLimit.
func liftMemoryLimit() {
	memory.mu.Lock()
	defer memory.mu.Unlock()
	if memory.limit > 0 && !memory.lifted {
		debug.SetMemoryLimit(math.MaxInt64)
		memory.lifted = true
	}
}

// keepMemoryLimit puts back the limit lifted for work that changed nothing.
func keepMemoryLimit() {
	memory.mu.Lock()
	defer memory.mu.Unlock()
	if memory.lifted && memory.builds == 0 {
		debug.SetMemoryLimit(memory.limit)
		memory.lifted = false
	}
}

// buildStarts lifts the limit for the length of a build; the returned
// function ends the build (once, however often it is called), after which
// settleMemory sets the limit again.
func buildStarts() (done func()) {
	liftMemoryLimit()
	memory.mu.Lock()
	memory.builds++
	memory.mu.Unlock()
	return sync.OnceFunc(func() {
		memory.mu.Lock()
		defer memory.mu.Unlock()
		memory.builds--
		if memory.builds == 0 && memory.building {
			// Lifted, as it was before the build's own limit, until
			// settleMemory.
			debug.SetMemoryLimit(math.MaxInt64)
			memory.building = false
			memory.lifted = memory.limit > 0
		}
	})
}

// buildProgress sets the limit of the builds under way from the live heap
// (see buildLimit); a build calls it after each batch of files.
func buildProgress() {
	memory.mu.Lock()
	defer memory.mu.Unlock()
	if memory.builds == 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	debug.SetMemoryLimit(buildLimit(sample[0].Value.Uint64()))
	memory.building = true
	memory.lifted = memory.limit > 0
}
