//go:build !unix

package bench

import "io/fs"

// allocated is the file's size where the block count is not exposed.
func allocated(fi fs.FileInfo) float64 { return float64(fi.Size()) }
