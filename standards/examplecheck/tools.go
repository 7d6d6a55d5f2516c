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

// checkTypeScript type-checks every block, each a module, in one tsc run.
func checkTypeScript(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error) {
	return runTSC(ctx, dir, blocks, opts.TSC, opts.TypeScriptFiles, ".ts", map[string]any{"strict": true})
}

// checkJavaScript checks the syntax of every block, each an ES module, in
// one tsc run. It does not type-check: a JavaScript example is meant to be
// read without the declarations a type check would need, and the standards
// that show JavaScript render the same examples as TypeScript, which are
// type-checked.
func checkJavaScript(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error) {
	return runTSC(ctx, dir, blocks, opts.TSC, nil, ".mjs", map[string]any{"allowJs": true, "checkJs": false})
}

// runTSC writes the blocks with the extension ext, and the extra files
// beside them, and runs tsc over them with Node's types and the given
// compiler options added to the common ones.
func runTSC(ctx context.Context, dir string, blocks []Block, tscPath string, extra map[string][]byte, ext string, options map[string]any) ([]Problem, error) {
	tsc, err := findTSC(tscPath)
	if err != nil {
		return nil, err
	}
	files, names, err := writeSources(dir, blocks, ext, "")
	if err != nil {
		return nil, err
	}
	for name, data := range extra {
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
	}
	for k, v := range options {
		compilerOptions[k] = v
	}
	config, _ := json.Marshal(map[string]any{"compilerOptions": compilerOptions, "files": names})
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), config, 0o644); err != nil {
		return nil, err
	}
	out, err := run(ctx, dir, nil, tsc, "-p", "tsconfig.json", "--pretty", "false")
	problems := mapDiagnostics(out, regexp.MustCompile(`(?m)^(b\d{3}\.m?[jt]s)\((\d+),\d+\): (error .*)$`), files)
	if err != nil && len(problems) == 0 {
		// An error in a declaration file, or one tsc could not place.
		return nil, fmt.Errorf("tsc: %v: %s", err, bytes.TrimSpace(out))
	}
	return problems, nil
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
