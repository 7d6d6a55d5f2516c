package examplecheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// checkJSON parses each block.
func checkJSON(_ context.Context, _ string, blocks []Block, _ Options) ([]Problem, error) {
	var out []Problem
	for _, b := range blocks {
		var v any
		if err := json.Unmarshal([]byte(b.Code), &v); err != nil {
			out = append(out, Problem{Block: b, Line: b.Line, Message: "invalid JSON: " + err.Error()})
		}
	}
	return out, nil
}

// sourceFile is one block written to a checker's folder: the assumed code,
// then the block.
type sourceFile struct {
	block  Block
	prefix int // lines before the block's first line
}

// writeSources writes each block, after its assumed code, to its own file
// with the extension ext, and returns the files by name.
func writeSources(dir string, blocks []Block, ext, header string) (map[string]sourceFile, []string, error) {
	files := map[string]sourceFile{}
	var names []string
	for i, b := range blocks {
		name := fileName(i, ext)
		src := header + b.Assume + b.Code
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			return nil, nil, err
		}
		files[name] = sourceFile{block: b, prefix: strings.Count(header+b.Assume, "\n")}
		names = append(names, name)
	}
	return files, names, nil
}

// mapDiagnostics turns tool output lines matched by re (groups: file name,
// line, message) into problems at the documents' lines.
func mapDiagnostics(out []byte, re *regexp.Regexp, files map[string]sourceFile) []Problem {
	var problems []Problem
	for _, m := range re.FindAllSubmatch(out, -1) {
		f, ok := files[filepath.Base(string(m[1]))]
		if !ok {
			continue
		}
		line, _ := strconv.Atoi(string(m[2]))
		doc := f.block.Line + line - f.prefix
		msg := strings.TrimSpace(string(m[3]))
		if line <= f.prefix {
			doc, msg = f.block.Line, "in its assumed code: "+msg
		}
		problems = append(problems, Problem{Block: f.block, Line: doc, Message: msg})
	}
	return problems
}

// run runs a tool in dir with env added to the environment and returns its
// combined output.
func run(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}

// checkPython compiles every block with py_compile, then runs pyflakes
// over them.
func checkPython(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error) {
	python, err := findPython(ctx, dir, opts.Python)
	if err != nil {
		return nil, err
	}
	files, names, err := writeSources(dir, blocks, ".py", "")
	if err != nil {
		return nil, err
	}
	// py_compile reports `File "b000.py", line 3`, the source lines
	// (indented) and `SyntaxError: ...`, and goes on to the next file;
	// pyflakes reports b000.py:3:1: message.
	compileOut, compileErr := run(ctx, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, python, append([]string{"-m", "py_compile"}, names...)...)
	problems := mapDiagnostics(compileOut, regexp.MustCompile(`(?m)File "([^"]+)", line (\d+)\n(?:[ \t].*\n)*(\w+: .*)$`), files)
	if compileErr != nil && len(problems) == 0 {
		return nil, fmt.Errorf("py_compile: %v: %s", compileErr, compileOut)
	}
	flakesOut, flakesErr := run(ctx, dir, nil, python, append([]string{"-m", "pyflakes"}, names...)...)
	flakes := mapDiagnostics(flakesOut, regexp.MustCompile(`(?m)^(b\d{3}\.py):(\d+):(?:\d+:)? (.*)$`), files)
	if flakesErr != nil && len(flakes) == 0 {
		return nil, fmt.Errorf("pyflakes: %v: %s", flakesErr, flakesOut)
	}
	failed := map[string]bool{} // pyflakes repeats the compiler's syntax errors
	for _, p := range problems {
		failed[p.Block.Where()] = true
	}
	for _, p := range flakes {
		if !failed[p.Block.Where()] {
			problems = append(problems, p)
		}
	}
	return problems, nil
}

// findPython returns the configured interpreter, or the first of python3
// on PATH and Debian's /usr/bin/python3 (where python3-pyflakes installs)
// that has pyflakes.
func findPython(ctx context.Context, dir, configured string) (string, error) {
	candidates := []string{configured}
	if configured == "" {
		candidates = []string{"python3", "/usr/bin/python3"}
	}
	for _, p := range candidates {
		if _, err := exec.LookPath(p); err != nil {
			continue
		}
		if _, err := run(ctx, dir, nil, p, "-c", "import pyflakes"); err == nil {
			return p, nil
		}
	}
	return "", skipError{"no python3 with pyflakes is installed; run scripts/install-checkers.sh"}
}

// checkTSC checks the TypeScript and JavaScript blocks, each a module, in one
// tsc run. TypeScript is type-checked (strict). JavaScript is only parsed
// (allowJs without checkJs): a JavaScript example is meant to be read without
// the declarations a type check would need, and the standards that show
// JavaScript render the same examples as TypeScript, which are type-checked.
func checkTSC(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error) {
	tsc, err := findTSC(opts.TSC)
	if err != nil {
		return nil, err
	}
	var ts, js []Block
	for _, b := range blocks {
		if b.Lang == "javascript" {
			js = append(js, b)
		} else {
			ts = append(ts, b)
		}
	}
	files, names, err := writeSources(dir, ts, ".ts", "")
	if err != nil {
		return nil, err
	}
	jsFiles, jsNames, err := writeSources(dir, js, ".mjs", "")
	if err != nil {
		return nil, err
	}
	for name, f := range jsFiles {
		files[name] = f
	}
	names = append(names, jsNames...)
	for name, data := range opts.TypeScriptFiles {
		if filepath.Base(name) != name || files[name].block.Doc != "" {
			return nil, fmt.Errorf("TypeScriptFiles: %q must be a plain file name that no block uses", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	// Node's types sit beside the compiler, in the same node_modules.
	real, err := filepath.EvalSymlinks(tsc)
	if err != nil {
		return nil, err
	}
	compilerOptions := map[string]any{
		"noEmit": true, "target": "ES2022", "lib": []string{"ES2022", "DOM"},
		"module": "nodenext", "moduleResolution": "nodenext", "moduleDetection": "force",
		"typeRoots": []string{filepath.Join(filepath.Dir(real), "..", "..", "@types")}, "types": []string{"node"}, "skipLibCheck": true,
		"strict": true, "allowJs": true, "checkJs": false,
	}
	problems, syntax, err := runTSC(ctx, dir, tsc, compilerOptions, names, files)
	if err != nil || len(syntax) == 0 {
		return problems, err
	}
	// tsc reports no type errors at all once one file fails to parse: the
	// blocks that parse are type-checked in a second run.
	var rest []string
	parsed := 0
	for _, name := range names {
		if !syntax[name] {
			rest = append(rest, name)
			if _, ok := files[name]; ok {
				parsed++
			}
		}
	}
	if parsed == 0 {
		return problems, nil
	}
	more, _, err := runTSC(ctx, dir, tsc, compilerOptions, rest, files)
	return append(problems, more...), err
}

// tscDiagnostic is a line of tsc's output about one of the blocks' files.
var tscDiagnostic = regexp.MustCompile(`(?m)^(b\d{3}\.m?[jt]s)\((\d+),\d+\): (error .*)$`)

// tscSyntaxError is a diagnostic of parsing (codes TS1xxx), after which tsc
// type-checks nothing.
var tscSyntaxError = regexp.MustCompile(`(?m)^(b\d{3}\.m?[jt]s)\(\d+,\d+\): error TS1\d{3}:`)

// runTSC runs tsc once over names and returns the problems found and the
// files that failed to parse.
func runTSC(ctx context.Context, dir, tsc string, compilerOptions map[string]any, names []string, files map[string]sourceFile) ([]Problem, map[string]bool, error) {
	config, _ := json.Marshal(map[string]any{"compilerOptions": compilerOptions, "files": names})
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), config, 0o644); err != nil {
		return nil, nil, err
	}
	out, err := run(ctx, dir, nil, tsc, "-p", "tsconfig.json", "--pretty", "false")
	problems := mapDiagnostics(out, tscDiagnostic, files)
	if err != nil && len(problems) == 0 {
		// An error in a declaration file, or one tsc could not place.
		return nil, nil, fmt.Errorf("tsc: %v: %s", err, bytes.TrimSpace(out))
	}
	syntax := map[string]bool{}
	for _, m := range tscSyntaxError.FindAllSubmatch(out, -1) {
		syntax[string(m[1])] = true
	}
	return problems, syntax, nil
}

// findTSC returns the configured TypeScript compiler or, when none is
// configured, the first of $AGENTOS_TSC, the one scripts/install-checkers.sh
// installs (in $AGENTOS_STANDARDS_CACHE, default <user cache>/agentos-standards)
// and tsc on PATH.
func findTSC(configured string) (string, error) {
	if configured == "" {
		configured = os.Getenv("AGENTOS_TSC")
	}
	if configured == "" {
		cache := os.Getenv("AGENTOS_STANDARDS_CACHE")
		if dir, err := os.UserCacheDir(); cache == "" && err == nil {
			cache = filepath.Join(dir, "agentos-standards")
		}
		if p := filepath.Join(cache, "node_modules", ".bin", "tsc"); cache != "" && fileExists(p) {
			return p, nil
		}
		p, err := exec.LookPath("tsc")
		if err != nil {
			return "", skipError{"tsc is not installed; run scripts/install-checkers.sh"}
		}
		return p, nil
	}
	if !fileExists(configured) {
		return "", skipError{"tsc is not installed at " + configured + "; run scripts/install-checkers.sh"}
	}
	return configured, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
