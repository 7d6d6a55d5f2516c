package app

import "example.com/fix/store"

var defaultDisk = &store.Disk{}

var counter store.Map

// Globals calls on package-level variables declared in this file and another.
func Globals() {
	defaultDisk.Sync()
	counter.Load("k")
	fallback.Close()
}
