// Package proc owns questions about other processes that differ by platform:
// whether a process id is alive.
package proc
