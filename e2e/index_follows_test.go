package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestIndexFollowsTheProject: the config install writes indexes the whole
// project, not the folders it found code in, so a package added afterwards
// (here by the agent, through the filesystem tool) is indexed while the
// server runs and the graph finds its callers; a gitignored folder is not.
func TestIndexFollowsTheProject(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Total sums the prices.\nfunc Total(prices []int) int {\n\tn := 0\n\tfor _, p := range prices {\n\t\tn += p\n\t}\n\treturn n\n}\n",
		".gitignore":   "generated/\n",
	})
	out := runOK(t, root, "install", "--dir", root, "--scope", "project", "--yes").stdout
	if !strings.Contains(out, "The code index covers the whole project") {
		t.Errorf("install does not say what the index covers:\n%s", out)
	}
	cfg, err := os.ReadFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"))
	if err != nil || !strings.Contains(string(cfg), "source_paths: [\".\"]") {
		t.Fatalf("install wrote source_paths other than the project (%v):\n%s", err, cfg)
	}
	lo, hi := portRange(t, 4)
	// The test's own ports: the recorded one and the range (the rest as install wrote it).
	own := regexp.MustCompile(`(?m)^  port: \d+$`).ReplaceAllString(string(cfg), fmt.Sprintf("  port: %d", lo))
	writeConfig(t, root, strings.Replace(own, "port_range: \"4242-5242\"", fmt.Sprintf("port_range: \"%d-%d\"", lo, hi), 1))
	c := stdioClient(t, root, "--transport", "dual")
	fsWrite(t, c, "greet/greet.go", "package greet\n\n// Greet says hello.\nfunc Greet(name string) string { return \"hello, \" + name }\n\n// Welcome greets a guest.\nfunc Welcome() string { return Greet(\"guest\") }\n")
	writeTree(t, root, map[string]string{"generated/gen.go": "package generated\n\nfunc Hidden() {}\n"})
	deadline := time.Now().Add(60 * time.Second)
	var r result
	for time.Now().Before(deadline) {
		if r = runAgentos(t, root, "graph", "callers", "Greet"); r.code == 0 && strings.Contains(r.stdout, "Welcome") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(r.stdout, "greet.Welcome") {
		t.Fatalf("a package added after install is not indexed: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runAgentos(t, root, "graph", "callers", "Hidden"); r.code == 0 {
		t.Errorf("a gitignored folder was indexed:\n%s", r.stdout)
	}
}
