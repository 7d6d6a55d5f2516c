// Package examplecheck checks the code examples of Markdown documents, such
// as the standards agentos installs, so that an example an agent copies
// compiles and passes its language's linter.
//
// The API is two calls:
//
//	blocks := examplecheck.Extract("retries.md", markdown) // every fenced code block
//	report, err := examplecheck.Check(ctx, blocks, examplecheck.Options{})
//
// Check sends each block to its language's checker, one tool run per
// language for all blocks together:
//
//   - go: the block and the standard-library imports it needs form one
//     package in a generated module (language version Options.GoVersion,
//     default 1.21), which must pass `go vet` (compile errors included, and
//     vet's stdversion check: no standard-library API newer than that
//     version). A block with its own package clause is taken as a whole
//     file; one without gets `package example` and the imports its
//     unresolved package names call for (a small table of standard
//     packages; math/rand for rand, so crypto/rand is imported explicitly).
//     A block that declares tests (func TestX) is a _test.go file.
//     Third-party imports resolve against the modules of Options.GoMod.
//   - python: `python3 -m py_compile`, then pyflakes.
//   - typescript: `tsc --strict --noEmit` over all blocks at once, each a
//     module, with Node's types and Options.TypeScriptFiles.
//   - javascript: syntax only, each block an ES module, in one tsc run.
//   - sql: run, one psql session per block, against a throwaway PostgreSQL
//     server; syntax errors and every failure other than a missing table,
//     column, function, type or parameter (the examples run against an
//     empty database) fail the block.
//   - json: parses.
//
// Other languages (sh, text, ini, …) are counted and not checked. A checker
// whose tool is missing is skipped and Report.Skipped says why.
//
// An HTML comment on the line before a fence steers the check of that block
// (several may precede one fence):
//
//	<!-- check: fragment -->   not checked: a genuine fragment (counted)
//	<!-- check: go1.22 -->     needs this Go version (the text must say so)
//	<!-- check: assume
//	type Order struct{ ID int64 }
//	-->                        code the block relies on, in its language,
//	                           compiled with it but not shown
package examplecheck

import (
	"fmt"
	"strings"
)

// Block is one fenced code block of a document.
type Block struct {
	Doc  string // the document's name, as given to Extract
	Line int    // the line of the opening fence, 1-based
	// Lang is the normalised language: go, python, typescript, javascript,
	// sql, json, or the info string's first word as written ("" when none).
	Lang      string
	Code      string
	Fragment  bool   // marked <!-- check: fragment -->
	GoVersion string // from <!-- check: goX.Y -->, "" for the default
	Assume    string // from <!-- check: assume ... -->
}

// Where is the block's position, doc:line.
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.Doc, b.Line) }

var languages = map[string]string{
	"go": "go", "golang": "go",
	"python": "python", "py": "python", "python3": "python",
	"typescript": "typescript", "ts": "typescript",
	"javascript": "javascript", "js": "javascript", "mjs": "javascript",
	"sql": "sql", "postgresql": "sql", "postgres": "sql",
	"json": "json",
}

// Extract returns the fenced code blocks of a Markdown document in order,
// with the check markers that precede them.
func Extract(doc string, markdown []byte) []Block {
	lines := strings.Split(strings.ReplaceAll(string(markdown), "\r\n", "\n"), "\n")
	var out []Block
	var pending Block // markers seen since the last non-marker line
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if rest, ok := strings.CutPrefix(trimmed, "<!-- check:"); ok {
			body := rest
			for !strings.Contains(body, "-->") && i+1 < len(lines) {
				i++
				body += "\n" + lines[i]
			}
			body, _, _ = strings.Cut(body, "-->")
			applyMarker(&pending, body)
			continue
		}
		fence, info, ok := openingFence(lines[i])
		if !ok {
			if trimmed != "" {
				pending = Block{}
			}
			continue
		}
		b := pending
		pending = Block{}
		b.Doc, b.Line = doc, i+1
		word, _, _ := strings.Cut(info, " ")
		b.Lang = strings.ToLower(word)
		if l, ok := languages[b.Lang]; ok {
			b.Lang = l
		}
		var code []string
		for i++; i < len(lines) && !closes(lines[i], fence); i++ {
			code = append(code, lines[i])
		}
		b.Code = strings.Join(code, "\n") + "\n"
		out = append(out, b)
	}
	return out
}

func applyMarker(b *Block, body string) {
	word, rest, _ := strings.Cut(strings.TrimSpace(body), "\n")
	word, tail, _ := strings.Cut(word, " ")
	switch {
	case word == "fragment":
		b.Fragment = true
	case strings.HasPrefix(word, "go1."):
		b.GoVersion = strings.TrimPrefix(word, "go")
	case word == "assume":
		b.Assume = strings.TrimSpace(tail + "\n" + rest)
		if b.Assume != "" {
			b.Assume += "\n"
		}
	}
}

// openingFence reports whether line opens a fenced block (three or more
// backticks or tildes, indented at most three spaces), returning the fence
// and the info string.
func openingFence(line string) (fence, info string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(t[n:])
	if t[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	return t[:n], info, true
}

func closes(line, fence string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= len(fence) && strings.TrimLeft(t, fence[:1]) == "" && t[0] == fence[0]
}
