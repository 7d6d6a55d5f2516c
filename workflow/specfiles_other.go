//go:build !unix

package workflow

import "os"

// specOpenFlags open a spec file for reading; readSpecFile checks that the
// file opened is the one it looked at, as these systems cannot refuse a
// link when opening.
const specOpenFlags = os.O_RDONLY
