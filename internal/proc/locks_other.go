//go:build !linux

package proc

import (
	"errors"
	"fmt"
)

// LockHolders cannot list a lock's holders on this platform without taking
// the lock: it returns an error satisfying errors.Is(err,
// errors.ErrUnsupported), and callers fall back to another check.
func LockHolders(path string) ([]int, error) {
	return nil, fmt.Errorf("lock holders of %s: %w", path, errors.ErrUnsupported)
}
