package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// fsRead reads a project file the way an agent can: through svc_filesystem.
func fsRead(t *testing.T, c *client.Client, path string) string {
	t.Helper()
	var out struct {
		Content string `json:"content"`
	}
	if res := call(t, c, "svc_filesystem", map[string]any{"action": "read", "path": path}, &out); res.IsError {
		t.Fatalf("svc_filesystem read %s: %v", path, res.Content)
	}
	return out.Content
}

// startSpecCreation starts spec_creation_v1 for a greeting and completes
// the first phase's tasks; it returns the session's ID and the spec folder.
func startSpecCreation(t *testing.T, c *client.Client) (id, dir string) {
	t.Helper()
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "greeting"}})
	id, dir = out.Session.ID, out.Session.Vars["spec_dir"]
	for _, task := range []string{"1.1", "1.2", "1.3"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	return id, dir
}

// TestSpecSubstanceCheatsAreRefused plays an agent that holds only agentos's
// MCP tools and fills spec_creation_v1's required sections without writing a
// spec: one word, Latin filler, the template's own guidance passed off as
// text, one word repeated. Each is refused with the file, the heading's line,
// what is wrong and how to fix it; the honest spec then passes first time.
func TestSpecSubstanceCheatsAreRefused(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	id, dir := startSpecCreation(t, c)
	gate := func() wfOut {
		t.Helper()
		return mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	}
	// refused writes the README and srd.md, runs the gate, and checks that it
	// fails with every want in the failed markdown_sections check's message and
	// fix in its remediation.
	refused := func(cheat, readme, srd, fix string, want ...string) {
		t.Helper()
		fsWrite(t, c, dir+"/README.md", readme)
		fsWrite(t, c, dir+"/srd.md", srd)
		msg, rem := failedCheck(t, gate(), "markdown_sections")
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the message lacks %q: %s", cheat, w, msg)
			}
		}
		if !strings.Contains(rem, fix) {
			t.Errorf("%s: the fix lacks %q: %s", cheat, fix, rem)
		}
	}
	sections := func(title string, body map[string]string, names ...string) string {
		doc := "# " + title + "\n"
		for _, n := range names {
			doc += "\n## " + n + "\n" + body[n] + "\n"
		}
		return doc
	}
	readmeOf := func(body map[string]string) string {
		return sections("Greeting", body, "Objectives", "Deliverables", "Success metrics")
	}
	srdOf := func(body map[string]string) string {
		return sections("Requirements", body, "Functional requirements", "Non-functional requirements", "Constraints")
	}
	each := func(text string) map[string]string {
		m := map[string]string{}
		for _, n := range []string{"Objectives", "Deliverables", "Success metrics", "Functional requirements", "Non-functional requirements", "Constraints"} {
			m[n] = text
		}
		return m
	}

	// The template's guidance, read from the scaffolded files and turned into
	// text: quote marks and placeholders removed.
	unquote := regexp.MustCompile(`(?m)^> ?`)
	fill := regexp.MustCompile(`\[\[fill[^\]]*\]\]`)
	asText := func(path string) string {
		return fill.ReplaceAllString(unquote.ReplaceAllString(fsRead(t, c, path), ""), "the greeting")
	}
	guidanceReadme, guidanceSRD := asText(dir+"/README.md"), asText(dir+"/srd.md")

	// Every required section one word.
	refused("one word", readmeOf(each("x")), srdOf(each("x")), "Write this feature's objectives under Objectives (line 3): at least 12 words",
		dir+"/README.md has 3 sections without enough content of its own: Objectives at line 3 has 1 word; at least 12 are needed")

	// Latin-like filler, in sentences.
	latin := "Quisque velit nisi, pretium ut lacinia in, elementum id enim. Curabitur aliquet quam id dui posuere blandit. Nulla porttitor accumsan tincidunt."
	refused("latin", readmeOf(each(latin)), srdOf(each(latin)), "as English sentences about this feature",
		"Objectives at line 3 does not read as English sentences (", "% of its words are in no English word list)")

	refused("guidance", guidanceReadme, guidanceSRD, "Replace the template's guidance under Objectives (line 11) with this feature's own objectives",
		"most of Objectives at line 11 is the template's guidance copied")

	// One word repeated, in list items that look like sentences.
	repeated := strings.Repeat("- greeting greeting greeting greeting.\n", 4)
	refused("repeated", readmeOf(each(repeated)), srdOf(each(repeated)), "as sentences that say what this feature needs",
		`Objectives at line 3 is one word repeated ("greeting" is 100% of its words)`)

	// The honest spec passes first time.
	fsWrite(t, c, dir+"/README.md", greetingReadme)
	fsWrite(t, c, dir+"/srd.md", greetingSRD)
	if out := gate(); !out.Gate.Passed || out.CurrentPhase != 2 {
		t.Fatalf("the honest spec was refused: %+v", out.Gate)
	}
}

// The greeting spec hard-wrapped the way editors and formatters write it: a
// sentence runs across lines and no line holds a sentence of its own, so a
// gate that read lines would refuse every section. The Interfaces section is
// a code block with one wrapped sentence explaining it.
const (
	wrappedReadme = `# Greeting

## Objectives
People who open the command line tool are greeted by their own name, so the first thing they see feels
personal. An empty name still gets a friendly greeting instead of an
error.

## Deliverables
A Greet function in greet.go with its doc comment, and table tests in greet_test.go that cover a name and
an empty
name.

## Success metrics
Every greeting test passes in CI, where none exist today, and the statement coverage of greet.go reaches at
least 90%.
`
	wrappedSRD = `# Requirements

## Functional requirements
FR-1: Greet must return the word hello, a comma, a space and the name it is given, unchanged, or hello world
when the name is
empty. Given ann, Greet returns hello followed by ann and nothing
else.

## Non-functional requirements
NFR-1: one call takes under 1 ms on a laptop, measured by a Go benchmark, and allocates nothing beyond the
returned string.

## Constraints
Only the standard library and Go 1.22 or
later.
`
	wrappedSpecs = "# Spec\n\n## Overview\n" +
		"One exported function, Greet, builds the greeting from the name, and we considered a template engine but\n" +
		"rejected it, since a string concatenation is clearer and has nothing to\n" +
		"configure.\n\n" +
		"## Components and data flow\n" +
		"The caller passes a name to Greet in greet.go, which returns the greeting string without storing anything or\n" +
		"calling another\n" +
		"package.\n\n" +
		"## Interfaces\n" +
		"```go\n// Greet returns the greeting for name.\nfunc Greet(name string) string\n```\n" +
		"`Greet` never fails and never returns an\n" +
		"error.\n\n" +
		"## Failure handling\n" +
		"Greet cannot fail, since every string, including an empty one or one with invalid UTF-8, yields a greeting\n" +
		"and Greet never\n" +
		"panics.\n\n" +
		"## Testing strategy\n" +
		"A table test covers FR-1 with a name, an empty name and a name with spaces, and the gate requires 90%\n" +
		"statement coverage of\n" +
		"greet.go.\n"
)

// TestSpecSubstanceHardWrappedPasses plays an honest agent whose spec is
// hard-wrapped: the gates of the first two phases judge paragraphs, not
// lines, and pass it first time, code block and all.
func TestSpecSubstanceHardWrappedPasses(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	id, dir := startSpecCreation(t, c)
	fsWrite(t, c, dir+"/README.md", wrappedReadme)
	fsWrite(t, c, dir+"/srd.md", wrappedSRD)
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed || out.CurrentPhase != 2 {
		t.Fatalf("the hard-wrapped README and srd.md were refused: %+v", out.Gate)
	}
	for _, task := range []string{"2.1", "2.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	fsWrite(t, c, dir+"/specs.md", wrappedSpecs)
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed || out.CurrentPhase != 3 {
		t.Fatalf("the hard-wrapped specs.md with an explained code block was refused: %+v", out.Gate)
	}
}
