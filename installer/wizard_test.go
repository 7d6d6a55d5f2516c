package installer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
)

func indexOf(t *testing.T, id string, skip string) string {
	t.Helper()
	n := 0
	for _, c := range agentconfig.All() {
		if c.ID == skip {
			continue
		}
		n++
		if c.ID == id {
			return strconv.Itoa(n)
		}
	}
	t.Fatalf("no client %s", id)
	return ""
}

// The wizard in accessible mode, driven through stdin: choose Cline, in
// Cursor, with Codex as a secondary, see the plan, confirm; files written.
func TestWizardAccessibleThroughStdin(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n", "AGENTS.md": "# notes\n"})
	env := testEnv(t)
	answers := strings.Join([]string{
		indexOf(t, "cline", ""),           // primary
		"2",                               // Cursor
		indexOf(t, "codex", "cline"), "0", // secondaries, then done
		"", "", "90", // detected folders and languages kept; coverage threshold
		"y", // pin the binary
		"y", // write
	}, "\n") + "\n"
	var out strings.Builder
	opts, err := Wizard(context.Background(), Options{Dir: root, BinaryPath: binary, Env: env},
		WizardIO{In: strings.NewReader(answers), Out: &out, Accessible: true})
	if err != nil {
		t.Fatalf("wizard: %v\n%s", err, out.String())
	}
	if strings.Join(opts.Agents, ",") != "cline" || opts.IDE != "cursor" || strings.Join(opts.Secondary, ",") != "codex" || !opts.Yes {
		t.Fatalf("options %+v\n%s", opts, out.String())
	}
	transcript := out.String()
	for _, want := range []string{"Which agent launches", "Cline runs inside which IDE", "Source folders to index", "Coverage threshold", "Pin a copy of this agentos binary", "Plan for " + root, "created  .codex/config.toml", "updated  AGENTS.md", "+ <!-- agentos:begin -->", "Write these changes?",
		// the defaults an empty answer keeps, which plain prompts do not show
		"Enter keeps Claude Code.", "Languages (comma-separated; none for none) [detected: go; enter keeps it]", "in percent [detected: 80; enter keeps it]"} {
		wantContains(t, transcript, want)
	}
	if _, err := os.Stat(filepath.Join(root, ".codex")); !os.IsNotExist(err) {
		t.Fatal("the wizard wrote before the install")
	}
	installWith(t, opts)
	wantContains(t, readTestFile(t, filepath.Join(root, ".agentos", "config", "mcp.yaml")), "coverage_threshold: 90")
	wantContains(t, readTestFile(t, filepath.Join(root, ".agentos", "config", "mcp.yaml")), `languages: ["go"]`)
	wantContains(t, readTestFile(t, filepath.Join(env.Home, ".cline", "data", "settings", "cline_mcp_settings.json")), `"autoApprove"`)
	wantContains(t, readTestFile(t, filepath.Join(root, ".codex", "config.toml")), "[mcp_servers.agentos]")
}

func TestWizardDeclinedWritesNothing(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	before := snapshot(t, root)
	var out strings.Builder
	_, err := Wizard(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{"cursor"}, Secondary: []string{"codex"}, Env: testEnv(t)},
		WizardIO{In: strings.NewReader("\n\n\n\nn\n"), Out: &out, Accessible: true})
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("err = %v\n%s", err, out.String())
	}
	assertSameTree(t, before, snapshot(t, root))
}

func TestShortDiff(t *testing.T) {
	t.Parallel()
	got := ShortDiff("a\nb\nc\n", "a\nB\nc\nd\n", 10)
	if strings.Join(got, "|") != "- b|+ B|+ d" {
		t.Errorf("diff = %q", got)
	}
	long := ShortDiff("", strings.Repeat("x\n", 30), 5)
	if len(long) != 6 || !strings.Contains(long[5], "more changed lines") {
		t.Errorf("capped diff = %q", long)
	}
}

func TestPickAgentAccessible(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	got, err := PickAgent(context.Background(), WizardIO{In: strings.NewReader(indexOf(t, "junie", "") + "\n"), Out: &out, Accessible: true})
	if err != nil || got != "junie" {
		t.Fatalf("picked %q, %v\n%s", got, err, out.String())
	}
	wantContains(t, out.String(), "JetBrains Junie (stdio bridge)")
}
