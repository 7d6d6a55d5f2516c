package testcmd

import (
	"github.com/agentos-dev/agentos/internal/shellquote"
	"regexp"
	"strings"

	"github.com/agentos-dev/agentos/workflow/gates"
)

// Narrow returns command changed to run only tests, and whether it could:
// fail-before runs only the tests that trace a criterion, on the code before
// the change, and a whole suite there would cost as much as the gate's own
// run. It narrows a single command of a runner it knows, by that runner's
// own selection: go test's -run with the tests' top-level names (and their
// packages in place of a ./... pattern, which would build and link every
// test binary of the module), pytest's -k
// with their names, Vitest's file filters and Jest's --runTestsByPath with
// their files. Anything else (a compound shell line, a script, a runner it
// does not know, a test whose name or file it cannot pass safely) is left
// whole, which is slower but selects no less.
func Narrow(command string, tests []gates.TestCase) (string, bool) {
	if len(tests) == 0 || compoundShell.MatchString(command) {
		return command, false
	}
	var arg string
	switch {
	case strings.Contains(command, "go test"):
		names := uniq(tests, func(tc gates.TestCase) string { top, _, _ := strings.Cut(tc.Name, "/"); return top })
		if names == nil || !allMatch(names, goTestName) {
			return command, false
		}
		arg = "-run " + shellquote.POSIX("^(?:"+strings.Join(names, "|")+")$")
		pkgs := uniq(tests, func(tc gates.TestCase) string { return tc.Package })
		if pkgs != nil && allMatch(pkgs, importPath) && len(everyPackage.FindAllStringIndex(command, -1)) == 1 {
			command = everyPackage.ReplaceAllString(command, "${1}"+strings.Join(pkgs, " ")+"${2}")
		}
	case strings.Contains(command, "pytest"):
		names := uniq(tests, func(tc gates.TestCase) string { name, _, _ := strings.Cut(tc.Name, "["); return name })
		if names == nil || !allMatch(names, pyName) {
			return command, false
		}
		arg = "-k " + shellquote.POSIX(strings.Join(names, " or "))
	case strings.Contains(command, "vitest"):
		// Vitest's JUnit classname is the test file, relative to the root.
		files := uniq(tests, func(tc gates.TestCase) string { return firstOf(tc.File, tc.Package) })
		if files == nil || !allMatch(files, safePath) {
			return command, false
		}
		arg = strings.Join(files, " ")
	case strings.Contains(command, "jest"):
		files := uniq(tests, func(tc gates.TestCase) string { return tc.File })
		if files == nil || !allMatch(files, safePath) {
			return command, false
		}
		arg = "--runTestsByPath " + strings.Join(files, " ")
	default:
		return command, false
	}
	return command + " " + arg, true
}

var (
	// compoundShell matches a command line that is more than one command,
	// or that redirects: an argument added at its end would reach the
	// wrong one.
	compoundShell = regexp.MustCompile("&&|\\|\\||[;|&<>`\n]|\\$\\(")
	goTestName    = regexp.MustCompile(`^(Test|Example|Fuzz)[\p{L}\p{N}_]*$`)
	pyName        = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	importPath    = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./~-]*$`)
	// everyPackage is go test's ./... argument.
	everyPackage = regexp.MustCompile(`(^|\s)\./\.\.\.(\s|$)`)
	// safePath is a relative path with nothing a shell or a runner's
	// pattern reads specially.
	safePath = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./-]*$`)
)

// uniq returns key of every test, each once, or nil if any key is empty.
func uniq(tests []gates.TestCase, key func(gates.TestCase) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, tc := range tests {
		k := key(tc)
		if k == "" {
			return nil
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func allMatch(ss []string, re *regexp.Regexp) bool {
	for _, s := range ss {
		if !re.MatchString(s) || strings.Contains(s, "..") {
			return false
		}
	}
	return true
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
