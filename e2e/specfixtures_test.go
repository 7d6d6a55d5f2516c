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

type specDoc struct{ name, content string }

// specDocs holds, by spec_creation_v1 phase, the files that pass its gate.
var specDocs = map[int][]specDoc{
	1: {
		{"README.md", "# Greeting\n\n## Objectives\nGreet users by name.\n\n## Deliverables\nA Greet function.\n\n## Success metrics\nEvery greeting test passes; coverage at least 90%.\n"},
		{"srd.md", "# Requirements\n\n## Functional requirements\n- FR-1: greet by name.\n\n## Non-functional requirements\n- NFR-1: under 1 ms.\n\n## Constraints\nStandard library only.\n"},
	},
	2: {
		{"specs.md", "# Spec\n\n## Overview\nOne function.\n\n## Components and data flow\ngreet.go only.\n\n## Interfaces\n`func Greet(name string) string`\n\n## Failure handling\nNone can fail.\n\n## Testing strategy\nTable tests.\n"},
	},
	3: {
		{"tasks.md", untickedTasks},
		{"implementation.md", "# Implementation\n\n## Approach\nWrite Greet.\n\n## Testing\nTable tests.\n"},
	},
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
