package gates

import (
	"regexp"
	"strings"
)

// causeRE matches an output line that says why a command stopped: a
// runner's usage error ("pytest: error: argument --cov-report: invalid
// choice"), a program the shell did not find, a missing package, a name
// the Go compiler did not find.
var causeRE = regexp.MustCompile(`(?i)\berror\b|not found|no such file|cannot find|invalid choice|unrecognized arguments|no module named|missing dependency|\bundefined: `)

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")

// causeLine returns the last line of a command's output that says why it
// stopped, or "".
func causeLine(output string) string {
	lines := strings.Split(ansiRE.ReplaceAllString(output, ""), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line != "" && causeRE.MatchString(line) {
			return clip(line, 240)
		}
	}
	return ""
}

// withCause adds to the message of a command that stopped before any test
// reached a verdict the output line that says why, so the message names
// the real cause rather than what its stopping left missing.
func withCause(message, output string) string {
	if line := causeLine(output); line != "" {
		return message + " Its output says: " + line
	}
	return message
}
