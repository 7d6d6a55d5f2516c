package e2e

import (
	"strings"
	"testing"
)

// The greeting feature: the spec and the Go module every workflow test
// builds, written the way an honest agent would write them.

// goodTasks is the greeting spec's tasks.md with every criterion ticked, as
// it reads once the work is done; untickedTasks is the same plan before.
const goodTasks = `# Tasks: greeting

## Phase 1: Greeting

- [x] 1.1 Write the greeting function (FR-1)
  - Add Greet to greet.go
  - Estimate: 1h
  - Acceptance criteria:
    - [x] AC-greeting-1.1.1: Greet returns "hello, NAME"

- [x] 1.2 Cover the empty name
  - Handle an empty name
  - Estimate: 30m
  - Acceptance criteria:
    - [x] AC-greeting-1.2.1: Greet("") returns "hello, world"
`

var untickedTasks = strings.ReplaceAll(goodTasks, "[x]", "[ ]")

// The greeting spec as a person would write it: short, but every required
// section says something of its own.
const (
	greetingReadme = `# Greeting

## Objectives
- People who open the command line tool are greeted by their own name, so the first thing they see feels personal.
- An empty name still gets a friendly greeting instead of an error.

## Deliverables
- A Greet function in greet.go, with its doc comment.
- Table tests in greet_test.go that cover a name and an empty name.

## Success metrics
| metric | baseline | target | how measured |
|---|---|---|---|
| greeting tests passing | none exist | all pass | go test ./... in CI |
| statement coverage of greet.go | 0% | at least 90% | go test -cover |
`
	greetingSRD = `# Requirements

## Functional requirements
- FR-1: Greet must return "hello, " followed by the name it is given, unchanged, or "hello, world"
  when the name is empty.
  - Acceptance: given "ann", when Greet runs, then it returns "hello, ann".

## Non-functional requirements
- NFR-1: one call takes under 1 ms on a laptop, measured by a Go benchmark.
- NFR-2: no allocation beyond the returned string.

## Constraints
Standard library only; Go 1.22 or later.
`
	greetingSpecs = `# Spec

## Overview
One exported function, Greet, builds the greeting from the name. We considered a template engine and
rejected it: a string concatenation is clearer and has nothing to configure.

## Components and data flow
The caller passes a name to Greet in greet.go, which returns the greeting string. Nothing is stored
and no other package is involved.

## Interfaces
` + "`func Greet(name string) string`" + ` returns "hello, NAME", or "hello, world" for an empty name.

## Failure handling
Greet cannot fail: every string, including an empty one or one with invalid UTF-8, yields a greeting
and it never panics.

## Testing strategy
A table test covers FR-1 with a name, an empty name and a name with spaces; the gate requires
90% statement coverage of greet.go.
`
	greetingImplementation = `# Implementation

## Approach
Write Greet first with its doc comment, then the table test, following the Go standards in
.agentos/standards/ for naming and tests.

## Testing
Run go test -cover ./... and check that every case of the table passes.
`
)

type specDoc struct{ name, content string }

// specDocs holds, by spec_creation_v1 phase, the files that pass its gate.
var specDocs = map[int][]specDoc{
	1: {{"README.md", greetingReadme}, {"srd.md", greetingSRD}},
	2: {{"specs.md", greetingSpecs}},
	3: {{"tasks.md", untickedTasks}, {"implementation.md", greetingImplementation}},
}

// writeSpecDocs writes the files that pass phase's gate into the spec folder dir.
func writeSpecDocs(t *testing.T, root, dir string, phase int) {
	t.Helper()
	for _, d := range specDocs[phase] {
		write(t, root, dir+"/"+d.name, d.content)
	}
}

// goProject writes a small Go module whose test covers half its code.
func goProject(t *testing.T, root string) {
	write(t, root, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	write(t, root, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
}

// fullGreetTest covers all of greet.go and names both criteria it proves.
const fullGreetTest = "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" || Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n"
