package serverctl

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitBlocked waits until n processes are blocked on the lock file's lock,
// as /proc/locks shows them ("->" lines on its inode): a stand-in that said
// "waiting" may not have reached the lock call yet on a loaded machine.
func waitBlocked(t *testing.T, lock string, n int) {
	t.Helper()
	fi, err := os.Stat(lock)
	if err != nil {
		t.Fatal(err)
	}
	ino := fmt.Sprintf(":%d ", fi.Sys().(*syscall.Stat_t).Ino)
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile("/proc/locks")
		blocked := 0
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "->") && strings.Contains(l, ino) {
				blocked++
			}
		}
		if blocked >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d stand-ins blocked on the lock after 30 s:\n%s", blocked, n, data)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
