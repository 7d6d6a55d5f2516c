package chunk

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The TypeScript/JavaScript chunker is measured against the TypeScript
// compiler: scripts/refparse/ts-decls.mjs prints every declaration the
// compiler sees, named and placed as the chunker names and places them; a
// declaration counts as found when a chunk has its name and its declaration
// line.

type tsRefDecl struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Line int    `json:"line"`
	// Start is the line its JSDoc or first decorator starts on, when it
	// has either (0 otherwise).
	Start int `json:"start"`
}

// tsAgreement is how far a chunker's output agrees with the reference.
type tsAgreement struct {
	files, decls, found, kindAgrees int
	firstMissed                     int // files whose first declaration was not found
	// documented are found declarations with a JSDoc or decorator above
	// them, startAgrees those whose chunk starts where the compiler says
	// the JSDoc or decorator does (a chunk also takes in line comments
	// directly above, so it may start earlier).
	documented, startAgrees int
	// windowedFiles were cut into windows; windows are those chunks, and
	// longModules the module chunks a window long (nameless stretches of
	// top-level statements).
	windowedFiles, windows, longModules int
	chunks, extra                       int      // all chunks; chunks with a symbol the reference does not have
	badRanges                           []string // chunks whose lines are out of order or outside their file
	misses                              []string
}

func (a tsAgreement) share() float64 {
	if a.decls == 0 {
		return 1
	}
	return float64(a.found) / float64(a.decls)
}

func (a tsAgreement) String() string {
	return fmt.Sprintf("%d files, %d declarations, %d found (%.2f%%), kind agrees on %d, first declaration missed in %d files; "+
		"start line agrees on %d of %d with JSDoc or decorators; "+
		"%d chunks, %d symbols not in the reference; %d files windowed into %d windows, %d module chunks a window long",
		a.files, a.decls, a.found, 100*a.share(), a.kindAgrees, a.firstMissed, a.startAgrees, a.documented, a.chunks, a.extra, a.windowedFiles, a.windows, a.longModules)
}

// measureTS chunks every file of ref under root with chunker and compares.
func measureTS(t *testing.T, root string, ref map[string][]tsRefDecl, chunker func(p, lang string, src []byte) []Chunk) tsAgreement {
	t.Helper()
	var a tsAgreement
	paths := make([]string, 0, len(ref))
	for p := range ref {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("reading a file of the reference: %v", err)
		}
		cs := chunker(p, LanguageOf(p), src)
		a.files++
		type key struct {
			name string
			line int
		}
		got := map[key]Chunk{}
		windowed := false
		n := len(lines(src))
		for _, c := range cs {
			a.chunks++
			if c.StartLine < 1 || c.StartLine > c.DeclLine || c.DeclLine > c.EndLine || c.EndLine > n {
				a.badRanges = append(a.badRanges, fmt.Sprintf("%s: %s %q lines %d..%d..%d of %d", p, c.Kind, c.Symbol, c.StartLine, c.DeclLine, c.EndLine, n))
			}
			switch {
			case c.Kind == Window:
				a.windows++
				windowed = true
			case c.Kind == Module && c.EndLine-c.StartLine+1 >= WindowLines:
				a.longModules++
			}
			if c.Symbol != "" {
				got[key{c.Symbol, c.DeclLine}] = c
			}
		}
		if windowed {
			a.windowedFiles++
		}
		inRef := map[key]bool{}
		for _, d := range ref[p] {
			inRef[key{d.Name, d.Line}] = true
		}
		for k := range got {
			if !inRef[k] {
				a.extra++
			}
		}
		for i, d := range ref[p] {
			a.decls++
			c, ok := got[key{d.Name, d.Line}]
			if !ok && i == 0 {
				a.firstMissed++
			}
			if !ok {
				a.misses = append(a.misses, fmt.Sprintf("%s:%d %s %s", p, d.Line, d.Kind, d.Name))
				continue
			}
			a.found++
			if string(c.Kind) == d.Kind {
				a.kindAgrees++
			}
			if d.Start > 0 {
				a.documented++
				if c.StartLine == d.Start {
					a.startAgrees++
				}
			}
		}
	}
	return a
}

func readTSReference(t *testing.T, file string) map[string][]tsRefDecl {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string][]tsRefDecl
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return ref
}

func tsChunker(p, lang string, src []byte) []Chunk { return Code(p, lang, src) }

// braceChunker is the brace scanner that chunked TypeScript and JavaScript
// before the recogniser, kept for the before/after figures.
func braceChunker(p, lang string, src []byte) []Chunk {
	cs, ok := Brace(p, lang, src)
	if !ok {
		return Windows(p, lang, src, 0, 0)
	}
	return cs
}

// TestTSReference checks the chunker against the compiler's declarations on
// real files from vuejs/core (no semicolons), colinhacks/zod (semicolons)
// and expressjs/express (CommonJS), committed under testdata/tsref with the
// reference output (testdata/tsref/README.md says how it was made).
func TestTSReference(t *testing.T) {
	root := filepath.Join("testdata", "tsref")
	ref := readTSReference(t, filepath.Join(root, "reference.json"))
	a := measureTS(t, root, ref, tsChunker)
	t.Log(a)
	if a.share() < 0.99 {
		t.Errorf("%.2f%% of the compiler's declarations found, want ≥ 99%%; missed:\n%s", 100*a.share(), strings.Join(a.misses, "\n"))
	}
	if a.windows != 0 {
		t.Errorf("%d files cut into windows", a.windowedFiles)
	}
	if len(a.badRanges) > 0 {
		t.Errorf("chunks with lines out of order or outside their file:\n%s", strings.Join(a.badRanges, "\n"))
	}
}

// TestTSReferenceLong measures a whole code base against the compiler:
//
//	AGENTOS_TSREF_ROOT=/path/to/code go test ./search/chunk -run TSReferenceLong -v
//
// It installs the compiler with scripts/refparse/install.sh (needs node and
// npm) and prints the figures for the recogniser and for the brace scanner
// it replaced.
func TestTSReferenceLong(t *testing.T) {
	// A measurement of a code base the person names, not one of the long
	// tests CI runs: only AGENTOS_TSREF_ROOT turns it on.
	root := os.Getenv("AGENTOS_TSREF_ROOT")
	if root == "" {
		t.Skip("set AGENTOS_TSREF_ROOT to a code base to measure it against the TypeScript compiler")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	install, err := exec.Command("bash", "../../scripts/refparse/install.sh").Output()
	if err != nil {
		t.Fatalf("installing the TypeScript compiler: %v", err)
	}
	cmd := exec.Command("node", "../../scripts/refparse/ts-decls.mjs", root)
	cmd.Env = append(os.Environ(), "NODE_PATH="+strings.TrimSpace(string(install)))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the reference: %v", err)
	}
	refFile := filepath.Join(t.TempDir(), "ref.json")
	if err := os.WriteFile(refFile, out, 0o644); err != nil {
		t.Fatal(err)
	}
	ref := readTSReference(t, refFile)
	before := measureTS(t, root, ref, braceChunker)
	after := measureTS(t, root, ref, tsChunker)
	t.Logf("before (brace scanner): %v", before)
	t.Logf("after (recogniser):     %v", after)
	if n := len(after.misses); n > 0 {
		t.Logf("first misses:\n%s", strings.Join(after.misses[:min(n, 40)], "\n"))
	}
	if after.share() < 0.99 {
		t.Errorf("%.2f%% found, want ≥ 99%%", 100*after.share())
	}
	if n := len(after.badRanges); n > 0 {
		t.Errorf("%d chunks with lines out of order or outside their file, first:\n%s", n, strings.Join(after.badRanges[:min(n, 20)], "\n"))
	}
}
