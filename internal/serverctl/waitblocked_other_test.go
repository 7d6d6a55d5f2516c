//go:build !linux

package serverctl

import "testing"

// waitBlocked is Linux only (/proc/locks); the test that needs it skips elsewhere.
func waitBlocked(t *testing.T, lock string, n int) {}
