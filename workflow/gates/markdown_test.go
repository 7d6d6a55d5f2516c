package gates

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeHeading(t *testing.T) {
	for in, want := range map[string]string{
		"Objectives":               "objectives",
		"  1. Objectives:  ":       "objectives",
		"2.1 Success   Metrics":    "success metrics",
		"A) Deliverables":          "deliverables",
		"IV. Deliverables":         "deliverables",
		"**Success Metrics** ##":   "success metrics",
		"✅ Objectives":             "objectives",
		"Objectives {#objectives}": "objectives",
		"`Interfaces`?":            "interfaces",
	} {
		if got := normalizeHeading(in); got != want {
			t.Errorf("normalizeHeading(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownSections(t *testing.T) {
	sections := []string{"Objectives", "Deliverables", "Success Metrics"}
	tests := []struct {
		name    string
		doc     string
		pass    bool
		missing []SectionIssue
		empty   []SectionIssue
	}{
		{name: "all filled, any level, numbered", pass: true, doc: `# Login
## 1. Objectives
Users sign in with the code we send to their email address.
### Deliverables:
- A POST /login endpoint that checks the code and opens a session
## Success metrics
| metric | target |
|---|---|
| p95 latency of POST /login | under 300 ms at 50 requests per second |
`},
		{name: "content in a subsection counts", pass: true, doc: `## Objectives
### Detail
Users sign in with the code we send to their email address.
## Deliverables
Users sign in with the code we send to their email address.
## Success Metrics
Users sign in with the code we send to their email address.
`},
		{name: "setext heading and code content", pass: true, doc: "Objectives\n==========\n\n```\nsome code\n```\n\nDeliverables\n------------\nUsers sign in with the code we send to their email address.\n## Success Metrics\nUsers sign in with the code we send to their email address.\n"},
		{name: "missing with close heading", doc: `## Objective
Users sign in with the code we send to their email address.
## Deliverables
Users sign in with the code we send to their email address.
`, missing: []SectionIssue{{Section: "Objectives", Line: 1, Closest: "Objective"}, {Section: "Success Metrics"}}},
		{name: "empty by placeholders, comments, TODO, guidance and table header", doc: `## Objectives
> Two to four outcomes for users.

- [[fill: objective]]
## Deliverables
<!-- list them
here -->
TODO: write this
TBD.
## Success Metrics
| metric | baseline | target |
|---|---|---|
| [[fill: metric]] | [[fill]] | [[fill]] |
## Out of scope
Everything else.
`, empty: []SectionIssue{{Section: "Objectives", Line: 1, EndLine: 4}, {Section: "Deliverables", Line: 5, EndLine: 9},
			{Section: "Success Metrics", Line: 10, EndLine: 13}}},
		{name: "a deeper heading does not end a section but its empty subsection does not fill it", doc: `## Objectives
### Sub
## Deliverables
x
## Success Metrics
y
`, empty: []SectionIssue{{Section: "Objectives", Line: 1, EndLine: 2}}},
		{name: "heading inside a code block does not count", doc: "```\n## Objectives\n```\n## Deliverables\nUsers sign in with the code we send to their email address.\n## Success Metrics\nUsers sign in with the code we send to their email address.\n",
			missing: []SectionIssue{{Section: "Objectives"}}},
		{name: "a filled duplicate wins", pass: true, doc: "## Objectives\n\n## Objectives\nUsers sign in with the code we send to their email address.\n## Deliverables\nUsers sign in with the code we send to their email address.\n## Success Metrics\nUsers sign in with the code we send to their email address.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := project(t, map[string]string{"docs/README.md": tt.doc})
			c := Check{Type: TypeMarkdownSections, File: "{dir}/README.md", Sections: sections}
			r := runCheck(t, c, Env{Root: root, Vars: map[string]string{"dir": "docs"}})
			if r.Passed != tt.pass {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			d := r.Details.(MarkdownDetails)
			if !reflect.DeepEqual(d.Missing, tt.missing) || !reflect.DeepEqual(d.Empty, tt.empty) {
				t.Errorf("missing %+v, want %+v\nempty %+v, want %+v", d.Missing, tt.missing, d.Empty, tt.empty)
			}
			if !r.Passed {
				contains(t, "message", r.Message, "docs/README.md")
			}
		})
	}
}

func TestMarkdownSectionsMessages(t *testing.T) {
	root := project(t, map[string]string{"README.md": "## Objective\nx\n## Deliverables\nTODO\n"})
	r := runCheck(t, Check{Type: TypeMarkdownSections, File: "README.md", Sections: []string{"Objectives", "Deliverables"}}, Env{Root: root})
	contains(t, "message", r.Message, "missing 1 section (Objectives)", "1 empty section", "Deliverables at line 3")
	contains(t, "remediation", r.Remediation, `"## Objectives"`, `"Objective" at line 1`, "Deliverables (line 3)")

	r = runCheck(t, Check{Type: TypeMarkdownSections, File: "nope.md", Sections: []string{"A"}}, Env{Root: root})
	if r.Passed || r.Message != "nope.md does not exist." {
		t.Errorf("missing file: %+v", r)
	}
	r = runCheck(t, Check{Type: TypeMarkdownSections, File: "../outside.md", Sections: []string{"A"}}, Env{Root: root})
	if r.Passed {
		t.Error("a file outside the project passed")
	}
	contains(t, "message", r.Message, "outside the project")
}

// The spec templates, untouched, must not pass their section checks.
func TestMarkdownTemplatesFail(t *testing.T) {
	for file, sections := range map[string][]string{
		"README.md":         {"Objectives", "Deliverables", "Success metrics"},
		"srd.md":            {"Functional requirements", "Non-functional requirements", "Constraints"},
		"specs.md":          {"Overview", "Components and data flow", "Interfaces", "Failure handling", "Testing strategy"},
		"implementation.md": {"Approach", "Testing"},
	} {
		src, err := os.ReadFile("../../assets/templates/spec/" + file)
		if err != nil {
			t.Skip("no spec templates here")
		}
		root := project(t, map[string]string{file: string(src)})
		r := runCheck(t, Check{Type: TypeMarkdownSections, File: file, Sections: sections}, Env{Root: root})
		if r.Passed {
			t.Errorf("the untouched %s template passes", file)
		}
		if d := r.Details.(MarkdownDetails); len(d.Empty) != len(sections) {
			t.Errorf("%s: empty sections %+v, want all %d", file, d.Empty, len(sections))
		}
	}
}

// A filled-in section must have substance: its minimum of words, text of its
// own rather than the template's guidance, and sentences rather than filler.
// Each refusal names the file, the heading's line, what is wrong and the fix.
func TestMarkdownSectionsSubstance(t *testing.T) {
	const honest = "Checkout succeeds when the payment provider answers slowly, and a customer is never charged twice."
	tests := []struct {
		name, body, problem, message, fix string
	}{
		{"one word", "x", ProblemShort, "Objectives at line 3 has 1 word; at least 12 are needed", "at least 12 words"},
		{"guidance copied", "Two to four outcomes for users or the business, not features. \"Checkout succeeds when the payment provider is slow\", not \"add a retry\".",
			ProblemGuidance, "most of Objectives at line 3 is the template's guidance copied (100% of its 5-word runs)", "Replace the template's guidance under Objectives (line 3) with this feature's own objectives"},
		{"no sentence", "checkout payment provider retry customer charge refund order invoice receipt ledger balance", ProblemNoSentence,
			"Objectives at line 3 has no sentence", "as sentences or list items"},
		{"one word repeated", "- retry retry retry retry retry retry retry retry retry retry retry retry retry", ProblemRepeated,
			`Objectives at line 3 is one word repeated ("retry" is 100% of its words)`, "as sentences"},
		{"latin", "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.", "",
			"empty section", "in place of placeholders"},
		{"latin without lorem", "Quisque velit nisi, pretium ut lacinia in, elementum id enim. Curabitur aliquet quam id dui posuere blandit.", ProblemNotEnglish,
			"Objectives at line 3 does not read as English sentences (", "as English sentences about this feature"},
		{"honest", honest, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := project(t, map[string]string{"spec/README.md": "# Checkout\n\n## Objectives\n" + tt.body + "\n\n## Deliverables\n" + honest + "\n"})
			c := Check{Type: TypeMarkdownSections, File: "spec/README.md", Template: "README.md", Sections: []string{"Objectives", "Deliverables"}, MinWords: map[string]int{"Objectives": 12}}
			r := runCheck(t, c, Env{Root: root})
			if tt.message == "" {
				if !r.Passed {
					t.Fatalf("an honest section was refused: %s", r.Message)
				}
				return
			}
			if r.Passed {
				t.Fatalf("passed: %+v", r.Details)
			}
			contains(t, "message", r.Message, "spec/README.md", tt.message)
			contains(t, "remediation", r.Remediation, tt.fix)
			if d := r.Details.(MarkdownDetails); tt.problem != "" && (len(d.Weak) != 1 || d.Weak[0].Problem != tt.problem || d.Weak[0].Line != 3) {
				t.Errorf("details %+v, want one %s at line 3", d.Weak, tt.problem)
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	src := "## S\n" +
		"A sentence wrapped\n" +
		"across two lines.\n" +
		"\n" +
		"Another paragraph.\n" +
		"- an item wrapped\n" +
		"  onto a second line\n" +
		"- [x] a checked item\n" +
		"| a | b |\n" +
		"| c | d |\n" +
		"<!-- a comment ends the paragraph -->\n" +
		"after the comment\n" +
		"```go\n" +
		"type T interface {\n" +
		"\tM()\n" +
		"}\n" +
		"```\n" +
		"Text after the fence.\n"
	lines := splitMarkdown([]byte(src))
	got := blocks(contentLines(lines[1:]))
	want := []block{
		{blockParagraph, "A sentence wrapped across two lines.", 2, 3},
		{blockParagraph, "Another paragraph.", 5, 5},
		{blockItem, "an item wrapped onto a second line", 6, 7},
		{blockItem, "a checked item", 8, 8},
		{blockRow, "| a | b |", 9, 9},
		{blockRow, "| c | d |", 10, 10},
		{blockParagraph, "after the comment", 12, 12},
		{blockCode, "type T interface {\n\tM()\n}", 14, 16},
		{blockParagraph, "Text after the fence.", 18, 18},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks:\n got %+v\nwant %+v", got, want)
	}
}

// The gates judge paragraphs, not lines: a sentence hard-wrapped by an editor
// counts, and a code block counts when prose explains it. The cheats stay
// refused when wrapped or put in a code block.
func TestMarkdownSectionsParagraphsAndCode(t *testing.T) {
	const iface = "```go\ntype Basket interface {\n\tAddAll(items []Item) error\n\tClear()\n}\n```\n"
	const wrapped = "`AddAll` returns the existing sentinel `ErrBasketFull` when the items would not fit, so callers can retry with a\n" +
		"fixed basket; `Clear` cannot fail.\n"
	const latin = "Quisque velit nisi, pretium ut lacinia in, elementum id enim. Curabitur aliquet quam id dui posuere blandit.\n"
	tests := []struct {
		name, body, problem, message, fix string
	}{
		{name: "a sentence hard-wrapped across two lines", body: wrapped},
		{name: "an interface's code block and one sentence explaining it", body: iface + "\n" + wrapped},
		{name: "a code block and a short sentence wrapped", body: iface + "Calls to a `Basket` are safe from\nany goroutine.\n"},
		{name: "a wrapped list item", body: "- `AddAll` returns `ErrBasketFull` when the items would\n  not fit in the basket\n"},
		{name: "a code block alone", body: iface, problem: ProblemNoSentence,
			message: "Interfaces at line 3 has a code block but no sentence explaining it", fix: "Explain the code under Interfaces (line 3)"},
		{name: "a code dump with a token sentence", body: iface + strings.Repeat(iface, 5) + "This is it.\n", problem: ProblemShort,
			message: "Interfaces at line 3 has 6 words, its code counted for no more words than the prose explaining it; at least 10 are needed",
			fix:     "a code block counts for at most as many words as the sentences around it"},
		{name: "Latin in a code block with a token sentence", body: "```\n" + latin + "```\nThe code is here.\n", problem: ProblemShort,
			message: "Interfaces at line 3 has 8 words, its code counted"},
		{name: "Latin hard-wrapped", body: strings.Replace(latin, " elementum", "\nelementum", 1), problem: ProblemNotEnglish,
			message: "Interfaces at line 3 does not read as English sentences"},
		{name: "Latin in a code block and Latin explaining it", body: "```\n" + latin + "```\n" + latin, problem: ProblemNotEnglish,
			message: "Interfaces at line 3 does not read as English sentences"},
		{name: "keywords hard-wrapped without a sentence", body: "basket items retry sentinel\ncaller goroutine fixed clear\nerror capacity overflow\n", problem: ProblemNoSentence,
			message: "Interfaces at line 3 has no sentence (no sentence-ending punctuation"},
		{name: "one word repeated, wrapped", body: strings.Repeat("basket basket basket\n", 5) + "basket.\n", problem: ProblemRepeated,
			message: `Interfaces at line 3 is one word repeated ("basket" is 100% of its words)`},
		{name: "the template's guidance wrapped", body: "Every public function, endpoint, command, event or file format added or changed: signature or request and response,\nstatus and error codes (see the API error response standard), examples.\n",
			problem: ProblemGuidance, message: "most of Interfaces at line 3 is the template's guidance copied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := project(t, map[string]string{"spec/specs.md": "# Basket\n\n## Interfaces\n" + tt.body + "\n## Overview\n" + wrapped})
			c := Check{Type: TypeMarkdownSections, File: "spec/specs.md", Template: "specs.md", Sections: []string{"Interfaces", "Overview"}}
			r := runCheck(t, c, Env{Root: root})
			if tt.problem == "" {
				if !r.Passed {
					t.Fatalf("an honest section was refused: %s", r.Message)
				}
				return
			}
			if r.Passed {
				t.Fatalf("passed: %+v", r.Details)
			}
			contains(t, "message", r.Message, "spec/specs.md", tt.message)
			contains(t, "remediation", r.Remediation, tt.fix)
			if d := r.Details.(MarkdownDetails); len(d.Weak) != 1 || d.Weak[0].Problem != tt.problem || d.Weak[0].Line != 3 {
				t.Errorf("details %+v, want one %s at line 3", d.Weak, tt.problem)
			}
		})
	}
}
