// Package proc owns questions about other processes that differ by platform:
// whether a process id is alive, and which processes hold a lock on a file.
package proc
