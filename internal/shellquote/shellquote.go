// Package shellquote writes a word so that a shell reads it back as that
// one word: the commands agentos suggests to a person (paste them into a
// shell and they work, spaces and quotes in paths included) and the ones it
// composes for sh to run.
package shellquote

import (
	"runtime"
	"strings"
)

// safe are the bytes a POSIX shell never treats specially in a word.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,"

// POSIX is s as one word for sh: unchanged when every byte is safe,
// otherwise in single quotes, each single quote in it written as a quote
// that closes, an escaped one, and a quote that reopens.
func POSIX(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Arg is s as one word for the shell a person on this system pastes into:
// POSIX quoting, or on Windows double quotes (cmd and PowerShell both read
// a double-quoted path with spaces as one word) when s needs any.
func Arg(s string) string {
	if runtime.GOOS != "windows" {
		return POSIX(s)
	}
	if s != "" && !strings.ContainsAny(s, " \t\"&|<>^%;,()'`$") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Command joins words into a command line for Arg's shell.
func Command(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Arg(w)
	}
	return strings.Join(q, " ")
}
