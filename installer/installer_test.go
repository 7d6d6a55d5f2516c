package installer

import (
	"context"
	"encoding/json"
	"github.com/agentos-dev/agentos/assets"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
)

func TestFreshInstall(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		files     map[string]string
		wantPaths []string
		wantLangs []string
	}{
		{
			name: "go",
			files: map[string]string{
				"go.mod":                "module example.com/x\n",
				"cmd/app/main.go":       "package main\n",
				"internal/store/a.go":   "package store\n",
				"internal/store/b.go":   "package store\n",
				"README.md":             "# x\n",
				"vendor/dep/dep.go":     "package dep\n",
				".github/tool/tool.py":  "print()\n",
				"internal/store/x.json": "{}",
			},
			wantPaths: []string{"."}, // detection decides languages; the index covers the project
			wantLangs: []string{"go"},
		},
		{
			name: "python and typescript",
			files: map[string]string{
				"pyproject.toml":            "[project]\n",
				"app/main.py":               "print()\n",
				"app/util.py":               "x = 1\n",
				"web/package.json":          "{}",
				"web/tsconfig.json":         "{}",
				"web/src/index.ts":          "export {}\n",
				"web/src/app.tsx":           "export {}\n",
				"web/src/view.tsx":          "export {}\n",
				"web/node_modules/m/m.js":   "",
				"web/dist/bundle.js":        "",
				"generated/out.js":          "",
				"app/__pycache__/main.pyc":  "",
				".gitignore":                "generated/\n*.log\n",
				"notes.log":                 "",
				"web/src/ignored.generated": "",
			},
			wantPaths: []string{"."},
			wantLangs: []string{"typescript", "python"},
		},
		{
			name:      "empty",
			files:     map[string]string{"README.md": "nothing here\n"},
			wantPaths: []string{"."},
			wantLangs: []string{},
		},
		{
			name: "source in the root",
			files: map[string]string{
				"main.go":     "package main\n",
				"lib/util.go": "package lib\n",
				"lib/x.rs":    "fn main() {}\n",
			},
			wantPaths: []string{"."},
			wantLangs: []string{"go", "rust"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, binary := newProject(t, tc.files)
			report := install(t, root, binary)
			p, _ := project.At(root)

			for _, dir := range layoutDirs(p) {
				if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
					t.Errorf("folder %s missing: %v", dir, err)
				}
			}
			cfg, err := config.Load(p.Config())
			if err != nil {
				t.Fatalf("config does not load: %v", err)
			}
			if !slices.Equal(cfg.Code.SourcePaths, tc.wantPaths) || !slices.Equal(cfg.Code.Languages, tc.wantLangs) {
				t.Errorf("code = %v %v, want %v %v", cfg.Code.SourcePaths, cfg.Code.Languages, tc.wantPaths, tc.wantLangs)
			}
			if !slices.Equal(cfg.AST.SourcePaths, cfg.Code.SourcePaths) || !slices.Equal(cfg.AST.Languages, cfg.Code.Languages) {
				t.Errorf("ast %+v differs from code %+v", cfg.AST, cfg.Code)
			}
			// The port is the project's own, recorded machine-wide; the rest are defaults.
			recorded, err := ports.Choose(context.Background(), p.Root, config.DefaultPortMin, config.DefaultPortMax)
			if err != nil || cfg.Server.Port != recorded {
				t.Errorf("server.port = %d, want the port recorded for the project (%d, %v)", cfg.Server.Port, recorded, err)
			}
			withPort := config.Default().Server
			withPort.Port = cfg.Server.Port
			if cfg.Server != withPort || cfg.Logging != config.Default().Logging {
				t.Errorf("server/logging = %+v %+v, want the defaults", cfg.Server, cfg.Logging)
			}

			if !report.Changed || report.Root != p.Root {
				t.Errorf("report = %+v", report)
			}
			for _, s := range report.Steps {
				if s.Action != Created && s.Kind != StepGitignore {
					t.Errorf("step %+v: want created", s)
				}
			}
			if report.Detected == nil || !slices.Equal(report.Detected.Languages, tc.wantLangs) {
				t.Errorf("report.Detected = %+v", report.Detected)
			}
			out := printed(report)
			wantContains(t, out, "Restart Claude Code")
			wantContains(t, out, "get_server_info")
			if len(tc.wantLangs) == 0 {
				wantContains(t, out, "No source code was detected")
			}
		})
	}
}

func TestFreshInstallWritesSharedFiles(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	install(t, root, binary)
	p, _ := project.At(root)

	pinned := PinnedBinary(p)
	fi, err := os.Stat(pinned)
	if err != nil {
		t.Fatal(err)
	}
	if got := readTestFile(t, pinned); got != string(fakeBinary) {
		t.Errorf("pinned binary = %q", got)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o755 {
		t.Errorf("pinned binary mode = %v, want 0755", fi.Mode().Perm())
	}

	if got, want := readTestFile(t, filepath.Join(root, ".gitignore")), string(renderBlock("\n")); got != want {
		t.Errorf(".gitignore = %q, want %q", got, want)
	}

	var doc struct {
		MCPServers map[string]struct {
			Type    string            `json:"type"`
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	// Claude Code's entry is in its local scope: ~/.claude.json, under
	// this project; the committed .mcp.json is not written.
	var local struct {
		Projects map[string]json.RawMessage `json:"projects"`
	}
	if err := json.Unmarshal([]byte(readTestFile(t, filepath.Join(homeFor(root).Home, ".claude.json"))), &local); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(local.Projects[p.Root], &doc); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".mcp.json")); !os.IsNotExist(err) {
		t.Errorf(".mcp.json written by default: %v", err)
	}
	entry := doc.MCPServers[agentconfig.ServerName]
	if entry.Type != "stdio" || entry.Command != filepath.Join(p.Root, ".agentos", "bin", filepath.Base(pinned)) ||
		!slices.Equal(entry.Args, []string{"serve", "--transport", "dual", "--log-level", "INFO"}) ||
		entry.Env["PROJECT_ROOT"] != p.Root {
		t.Errorf("entry = %+v", entry)
	}
	if _, err := os.Stat(p.Backups()); !os.IsNotExist(err) {
		t.Errorf("backups written for files that did not exist: %v", err)
	}
}

func TestSecondRunChangesNothing(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{
		"src/a.py":   "x = 1\n",
		".gitignore": "*.pyc\r\nbuild/",
		".mcp.json":  `{"mcpServers": {"other": {"command": "other"}}}`,
	})
	install(t, root, binary)
	before := snapshot(t, root)

	report := install(t, root, binary)
	assertSameTree(t, before, snapshot(t, root))
	if report.Changed || report.Detected != nil {
		t.Errorf("second run report = %+v", report)
	}
	for _, s := range report.Steps {
		if s.Action != Unchanged || s.Backup != "" {
			t.Errorf("second run step %+v", s)
		}
	}
	if got, want := printed(report), "agentos is up to date in "+report.Root+"; nothing changed.\n"; got != want {
		t.Errorf("Print = %q, want %q", got, want)
	}
}

func TestReportJSON(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	data, err := json.Marshal(install(t, root, binary))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Root    string `json:"root"`
		Changed bool   `json:"changed"`
		Steps   []struct {
			Kind, Path, Action string
		} `json:"steps"`
		Detected struct {
			Languages []string `json:"languages"`
		} `json:"detected"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	p, _ := project.At(root)
	shipped, err := shippedFiles(assets.UniversalStandards, filepath.Join(p.Standards(), "universal"))
	if err != nil {
		t.Fatal(err)
	}
	workflows, err := shippedFiles(assets.Workflows, p.Workflows())
	if err != nil {
		t.Fatal(err)
	}
	if !got.Changed || len(got.Steps) != 20+len(shipped)+len(workflows)+len(LanguageTopics) || got.Steps[0].Action != "created" || got.Detected.Languages[0] != "go" {
		t.Errorf("report JSON = %s", data)
	}
	if got.Steps[len(got.Steps)-8].Path != "~/.claude.json" || got.Steps[len(got.Steps)-7].Path != "CLAUDE.md" || got.Steps[len(got.Steps)-6].Path != ".claude/commands/agentos-spec.md" || got.Steps[len(got.Steps)-1].Path != ".claude/skills/agentos/SKILL.md" || got.Steps[9].Path != ".agentos/config/mcp.yaml" {
		t.Errorf("paths not relative to the project: %s", data)
	}
}

func TestGitignoreMergeKeepsLines(t *testing.T) {
	t.Parallel()
	original := "node_modules/\r\n# my comment\r\n*.log"
	root, binary := newProject(t, map[string]string{".gitignore": original})
	report := install(t, root, binary)
	path := filepath.Join(root, ".gitignore")
	backupPath := filepath.Join(root, ".agentos", "backups", "original", ".gitignore")

	want := original + "\r\n\r\n" + string(renderBlock("\r\n"))
	if got := readTestFile(t, path); got != want {
		t.Errorf(".gitignore = %q, want %q", got, want)
	}
	if got := readTestFile(t, backupPath); got != original {
		t.Errorf("backup = %q, want the original", got)
	}
	step := stepFor(t, report, StepGitignore)
	if step.Action != Updated || step.Backup != ".agentos/backups/original/.gitignore" {
		t.Errorf("step = %+v", step)
	}

	// An edited block is put back in place; lines after it stay where they are.
	edited := strings.Replace(readTestFile(t, path), ".agentos/bin/\r\n", "", 1) + "after\r\n"
	writeTestFile(t, path, edited)
	report = install(t, root, binary)
	if got, want := readTestFile(t, path), want+"after\r\n"; got != want {
		t.Errorf(".gitignore = %q, want %q", got, want)
	}
	if step := stepFor(t, report, StepGitignore); step.Action != Updated || step.Backup != "" {
		t.Errorf("second edit step = %+v; the backup must be written only once", step)
	}
	if got := readTestFile(t, backupPath); got != original {
		t.Errorf("backup = %q, want the first original", got)
	}
}

func TestGitignoreBlockReplacedInPlace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{
			name: "stale block in the middle",
			in:   "a\n# agentos:begin (old marker text)\n.agentos/bin/\n# agentos:end\nb\n",
			want: "a\n" + string(renderBlock("\n")) + "b\n",
		},
		{
			name: "block at the end without newline",
			in:   "a\n# agentos:begin\n# agentos:end",
			want: "a\n" + string(renderBlock("\n")),
		},
		{
			name: "current block",
			in:   "a\n" + string(renderBlock("\n")) + "b",
			want: "a\n" + string(renderBlock("\n")) + "b",
		},
		{
			name: "file ending in a blank line",
			in:   "a\n\n",
			want: "a\n\n" + string(renderBlock("\n")),
		},
		{
			name: "empty file",
			in:   "",
			want: string(renderBlock("\n")),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mergeGitignore([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("merge(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestGitignoreUnterminatedBlockFailsCleanly(t *testing.T) {
	root, binary := newProject(t, map[string]string{".gitignore": "a\n# agentos:begin\n.agentos/bin/\n"})
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary})
	if err == nil {
		t.Fatal("want an error")
	}
	wantContains(t, err.Error(), "# agentos:end")
	assertSameTree(t, before, snapshot(t, root))
}

func TestMCPJSONMergeKeepsServersAndComments(t *testing.T) {
	t.Parallel()
	original := `{
  // servers for this repo
  "mcpServers": {
    "github": {"command": "gh-mcp", "args": []} // keep me
  },
  "other": true
}
`
	root, binary := newProject(t, map[string]string{".mcp.json": original})
	report := installScope(t, root, binary, "project")
	got := readTestFile(t, filepath.Join(root, ".mcp.json"))
	for _, want := range []string{
		"// servers for this repo",
		`"github": {"command": "gh-mcp", "args": []}, // keep me`,
		`"other": true`,
		`    "agentos": {` + "\n" + `      "type": "stdio",` + "\n" + `      "command": `,
	} {
		wantContains(t, got, want)
	}
	if step := stepFor(t, report, StepMCPJSON); step.Action != Updated || step.Backup != ".agentos/backups/original/.mcp.json" {
		t.Errorf("step = %+v", step)
	}
	if backup := readTestFile(t, filepath.Join(root, ".agentos", "backups", "original", ".mcp.json")); backup != original {
		t.Errorf("backup = %q", backup)
	}

	// An outdated entry is replaced; everything else stays.
	stale := strings.Replace(got, `"INFO"`, `"DEBUG"`, 1)
	writeTestFile(t, filepath.Join(root, ".mcp.json"), stale)
	report = installScope(t, root, binary, "project")
	if step := stepFor(t, report, StepMCPJSON); step.Action != Updated || step.Backup != "" {
		t.Errorf("step = %+v", step)
	}
	if again := readTestFile(t, filepath.Join(root, ".mcp.json")); again != got {
		t.Errorf("after replacing the stale entry:\n%s\nwant:\n%s", again, got)
	}
}

func TestMCPJSONIdenticalEntryUnchanged(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, nil)
	p, _ := project.At(root)
	cc, _ := agentconfig.Lookup("claude-code")
	entry, _ := json.Marshal(cc.Emit(agentconfig.Launch(PinnedBinary(p), p.Root)))
	// Same entry, different layout and key order: nothing to do.
	var m map[string]any
	json.Unmarshal(entry, &m)
	compact, _ := json.Marshal(map[string]any{"env": m["env"], "args": m["args"], "command": m["command"], "type": m["type"]})
	original := `{"mcpServers":{"agentos":` + string(compact) + `}}`
	writeTestFile(t, filepath.Join(root, ".mcp.json"), original)

	report := installScope(t, root, binary, "project")
	if step := stepFor(t, report, StepMCPJSON); step.Action != Unchanged {
		t.Errorf("step = %+v", step)
	}
	if got := readTestFile(t, filepath.Join(root, ".mcp.json")); got != original {
		t.Errorf(".mcp.json rewritten: %s", got)
	}
}

func TestMergeMCPJSONLayouts(t *testing.T) {
	t.Parallel()
	want := agentconfig.Object{{Key: "command", Value: "/p/.agentos/bin/agentos"}, {Key: "args", Value: agentconfig.LaunchArgs}, {Key: "env", Value: map[string]string{"PROJECT_ROOT": "/p"}}}
	for _, tc := range []struct{ name, in, contains string }{
		{"empty object", "{}", "{\n  \"mcpServers\": {\n    \"agentos\": {\n"},
		{"no servers key", "{\n  \"x\": 1\n}\n", "  \"x\": 1,\n  \"mcpServers\": {\n    \"agentos\": {\n"},
		{"empty servers", "{\n  \"mcpServers\": {}\n}\n", "  \"mcpServers\": {\n    \"agentos\": {\n"},
		{"tabs and trailing commas", "{\n\t\"mcpServers\": {\n\t\t\"x\": {},\n\t},\n}", "\t\t\"x\": {},\n\t\t\"agentos\": {\n\t\t\t\"command\""},
		{"one line", `{"mcpServers":{"x":{}}}`, `{"mcpServers":{"x":{},"agentos":{"command":`},
		{"whitespace only", " \n", "\"mcpServers\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := mergeMCPJSON([]byte(tc.in), want)
			if err != nil || !changed {
				t.Fatalf("merge = %v, %v", changed, err)
			}
			wantContains(t, string(out), tc.contains)
			again, changed, err := mergeMCPJSON(out, want)
			if err != nil || changed || string(again) != string(out) {
				t.Errorf("second merge changed=%v err=%v", changed, err)
			}
		})
	}
}

func TestMergeMCPJSONRejects(t *testing.T) {
	t.Parallel()
	want := agentconfig.Object{{Key: "command", Value: "x"}}
	for _, tc := range []struct{ in, err string }{
		{"[]", "must hold a JSON object, not an array"},
		{`{"mcpServers": []}`, "mcpServers must be a JSON object"},
		{"{\n  \"a\": 1\n  \"b\": 2\n}", "line 3"},
	} {
		_, _, err := mergeMCPJSON([]byte(tc.in), want)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("merge(%q) error = %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestMalformedMCPJSONWritesNothing(t *testing.T) {
	root, binary := newProject(t, map[string]string{
		"main.go":    "package main\n",
		".gitignore": "x\n",
		".mcp.json":  "{\n  \"mcpServers\": {\n    \"a\": {,\n  }\n}\n",
	})
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, Yes: true, BinaryPath: binary, Scope: "project"})
	if err == nil {
		t.Fatal("want an error")
	}
	wantContains(t, err.Error(), filepath.Join(root, ".mcp.json"))
	wantContains(t, err.Error(), "line 3")
	assertSameTree(t, before, snapshot(t, root))
}

func TestInvalidConfigWritesNothing(t *testing.T) {
	root, binary := newProject(t, map[string]string{
		".agentos/config/mcp.yaml": "code:\n  sourcepaths: [src]\n",
	})
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, Yes: true, BinaryPath: binary})
	if err == nil {
		t.Fatal("want an error")
	}
	wantContains(t, err.Error(), `"code.sourcepaths"`)
	wantContains(t, err.Error(), "line 2")
	assertSameTree(t, before, snapshot(t, root))
}

func TestExistingConfigKept(t *testing.T) {
	t.Parallel()
	const cfg = "# mine\nlogging:\n  level: DEBUG\n"
	root, binary := newProject(t, map[string]string{
		"main.go":                  "package main\n",
		".agentos/config/mcp.yaml": cfg,
	})
	report := install(t, root, binary)
	if got := readTestFile(t, filepath.Join(root, ".agentos", "config", "mcp.yaml")); got != cfg {
		t.Errorf("config rewritten: %q", got)
	}
	if step := stepFor(t, report, StepConfig); step.Action != Unchanged || report.Detected != nil {
		t.Errorf("config step = %+v, detected = %+v", step, report.Detected)
	}
}

func TestBinaryPin(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, nil)
	p, _ := project.At(root)
	pinned := PinnedBinary(p)
	writeTestFile(t, pinned, string(fakeBinary))
	if err := os.Chmod(pinned, 0o755); err != nil {
		t.Fatal(err)
	}
	if step := stepFor(t, install(t, root, binary), StepBinary); step.Action != Unchanged {
		t.Errorf("identical binary: step = %+v", step)
	}

	writeTestFile(t, pinned, "older build")
	if step := stepFor(t, install(t, root, binary), StepBinary); step.Action != Updated {
		t.Errorf("different binary: step = %+v", step)
	}
	if got := readTestFile(t, pinned); got != string(fakeBinary) {
		t.Errorf("pinned = %q", got)
	}

	// Running the pinned copy itself pins nothing.
	if step := stepFor(t, install(t, root, pinned), StepBinary); step.Action != Unchanged {
		t.Errorf("pinned copy as source: step = %+v", step)
	}
}

func TestBinaryModeRestored(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no execute bits on Windows")
	}
	root, binary := newProject(t, nil)
	install(t, root, binary)
	p, _ := project.At(root)
	if err := os.Chmod(PinnedBinary(p), 0o644); err != nil {
		t.Fatal(err)
	}
	if step := stepFor(t, install(t, root, binary), StepBinary); step.Action != Updated {
		t.Errorf("step = %+v", step)
	}
	if fi, _ := os.Stat(PinnedBinary(p)); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode = %v", fi.Mode().Perm())
	}
}

func TestMissingBinaryWritesNothing(t *testing.T) {
	root, _ := newProject(t, map[string]string{"a.go": "package a\n"})
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: filepath.Join(root, "nope")})
	if err == nil {
		t.Fatal("want an error")
	}
	wantContains(t, err.Error(), "binary to pin")
	assertSameTree(t, before, snapshot(t, root))
}

func TestBadProjectFolder(t *testing.T) {
	root, binary := newProject(t, map[string]string{"file": "x"})
	for _, tc := range []struct{ dir, err string }{
		{filepath.Join(root, "missing"), "does not exist"},
		{filepath.Join(root, "file"), "is not a folder"},
	} {
		_, err := Install(context.Background(), Options{Dir: tc.dir, BinaryPath: binary})
		if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "install: ") {
			t.Errorf("Install(%s) error = %v, want %q", tc.dir, err, tc.err)
		}
	}
}

func TestUnwritableProject(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs a user that folder permissions apply to")
	}
	root, binary := newProject(t, map[string]string{"a.go": "package a\n"})
	if err := os.Chmod(root, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(root, 0o755) })
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary})
	if err == nil || !strings.Contains(err.Error(), "cannot write to") {
		t.Errorf("error = %v", err)
	}
}

func TestCanceled(t *testing.T) {
	root, binary := newProject(t, map[string]string{"a.go": "package a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Install(ctx, Options{Dir: root, BinaryPath: binary}); err == nil {
		t.Error("want an error from a canceled context")
	}
}

// mergeMCPJSON merges agentos's entry into a .mcp.json document the way
// install does.
func mergeMCPJSON(data []byte, want agentconfig.Object) ([]byte, bool, error) {
	return agentconfig.Merge(agentconfig.JSON, data, []string{"mcpServers"}, agentconfig.ServerName, false, want, nil)
}
