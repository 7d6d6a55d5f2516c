package fsys

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// fixture is a project root next to a sentinel folder outside it:
//
//	base/
//	  outside/secret.txt, outside/sub/      never to be touched
//	  project/                              the root
//	    README.md, src/main.go, src/util/util.go
//	    .gitignore (build/, *.log, !keep.log), nested/.gitignore (local.txt)
//	    .git/config, .git/info/exclude (excluded.txt)
//	    .agentos/.cache/state, .agentos/config/mcp.yaml
//	    etclink -> /etc, outlink -> ../outside, outabs -> base/outside
//	    sub/up -> ../.., loop_a -> loop_b -> loop_a
//	    inlink -> src, inabs -> project/src (absolute), filelink -> README.md
type fixture struct {
	base, root, outside string
	tool                toolkit.Tool
}

func newFixture(t *testing.T, opts ...Options) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{base: base, root: filepath.Join(base, "project"), outside: filepath.Join(base, "outside")}
	files := map[string]string{
		"outside/secret.txt":             "secret\n",
		"outside/sub/keep.txt":           "keep\n",
		"project/README.md":              "hello\nworld\n",
		"project/src/main.go":            "package main\n",
		"project/src/util/util.go":       "package util\n",
		"project/.gitignore":             "build/\n*.log\n!keep.log\n",
		"project/nested/.gitignore":      "local.txt\n",
		"project/nested/file.txt":        "nested\n",
		"project/.git/config":            "[core]\n",
		"project/.git/info/exclude":      "# local excludes\nexcluded.txt\n",
		"project/.agentos/.cache/state":  "{}\n",
		"project/.agentos/config/a.yaml": "a: 1\n",
		"project/sub/file.txt":           "sub\n",
	}
	for name, content := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	links := map[string]string{
		"etclink":  "/etc",
		"outlink":  "../outside",
		"outabs":   f.outside,
		"sub/up":   "../..",
		"loop_a":   "loop_b",
		"loop_b":   "loop_a",
		"inlink":   "src",
		"inabs":    filepath.Join(f.root, "src"),
		"filelink": "README.md",
	}
	for name, dest := range links {
		must(t, os.Symlink(dest, filepath.Join(f.root, filepath.FromSlash(name))))
	}
	opt := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if len(opts) > 0 {
		opt = opts[0]
		opt.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	tl, err := New(f.root, opt)
	must(t, err)
	f.tool = tl
	return f
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// call invokes the handler the way the MCP server does.
func (f *fixture) call(t *testing.T, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = Name
	req.Params.Arguments = args
	res, err := f.tool.Handler(context.Background(), req)
	if err != nil {
		t.Fatalf("handler returned a protocol error: %v", err)
	}
	return res
}

// ok calls the tool and returns the decoded successful result.
func (f *fixture) ok(t *testing.T, args map[string]any) Output {
	t.Helper()
	res := f.call(t, args)
	if res.IsError {
		t.Fatalf("call %v failed: %s", args, textOf(res))
	}
	var out Output
	decode(t, res.StructuredContent, &out)
	return out
}

// fail calls the tool, expects an error with code and returns it.
func (f *fixture) fail(t *testing.T, args map[string]any, code string) toolkit.Error {
	t.Helper()
	res := f.call(t, args)
	if !res.IsError {
		t.Fatalf("call %v succeeded, want %s: %s", args, code, textOf(res))
	}
	e, _ := toolkit.Envelope(res)
	if e.Code != code {
		t.Fatalf("call %v: code %s, want %s (message: %s)", args, e.Code, code, e.Message)
	}
	if e.Message == "" {
		t.Fatalf("call %v: empty error message", args)
	}
	return e
}

func decode(t *testing.T, v any, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	must(t, json.Unmarshal(b, into))
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// field returns the "field" detail of an error, or "".
func field(e toolkit.Error) string {
	m, _ := e.Details.(map[string]any)
	s, _ := m["field"].(string)
	return s
}

// snapshot records every entry under dir without following symlinks: type,
// permissions, content or link target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			dest, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + dest
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(data)
		}
		snap[p] = desc
		return nil
	})
	must(t, err)
	return snap
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for p, d := range before {
		if after[p] != d {
			t.Errorf("%s changed: %q -> %q", p, d, after[p])
		}
	}
	for p, d := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared: %q", p, d)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	must(t, err)
	return string(data)
}

func (f *fixture) path(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

func mkdirAll(p string) error { return os.MkdirAll(p, 0o755) }
