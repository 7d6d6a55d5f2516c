package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

func TestLockHoldersFollowTheKernel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.lock")
	if pids, err := LockHolders(path); err != nil || len(pids) != 0 {
		t.Fatalf("missing file: %v %v", pids, err)
	}
	fl := flock.New(path)
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	pids, err := LockHolders(path)
	if err != nil || !slices.Contains(pids, os.Getpid()) {
		t.Fatalf("held by us: %v %v", pids, err)
	}
	// Another file with a lock of its own is not confused with this one.
	other := flock.New(filepath.Join(t.TempDir(), "other.lock"))
	other.TryLock()
	defer other.Unlock()
	fl.Unlock()
	if pids, err := LockHolders(path); err != nil || len(pids) != 0 {
		t.Fatalf("after unlock: %v %v", pids, err)
	}
}

func TestParseLocks(t *testing.T) {
	const text = `1: FLOCK  ADVISORY  WRITE 5165 fe:00:9977863 0 EOF
1: -> FLOCK  ADVISORY  WRITE 5170 fe:00:9977863 0 EOF
2: POSIX  ADVISORY  WRITE 42 00:2b:9977863 0 EOF
3: OFDLCK ADVISORY  READ  -1 fe:00:9977863 0 EOF
4: FLOCK  ADVISORY  WRITE 77 fe:00:123 0 EOF
garbage
`
	pids, err := parseLocks(strings.NewReader(text), 9977863)
	if err != nil || !slices.Equal(pids, []int{5165, 42}) {
		t.Errorf("holders = %v, %v; want [5165 42] (no waiter, no pid-less OFD lock, no other inode)", pids, err)
	}
}
