package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `agentos search` and `agentos graph` ask the running server when its
// state file is trusted, sending the project's token, and load the saved
// indexes themselves otherwise; either way they print the same. A state
// file forged to name another listener gets neither the token nor an MCP
// message (at most the token-less liveness GET), and the saved indexes
// answer instead, as `agentos status` then says no server runs.
func TestSearchCLIAsksTheRunningServer(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, searchFiles)
	writeTree(t, root, map[string]string{
		"checkout/add.go": "package checkout\n\n// Add adds two numbers.\nfunc Add(a, b int) int { return a + b }\n\n" +
			"// Ops are the operations by name.\nvar Ops = map[string]func(a, b int) int{\"add\": Add}\n",
		"checkout/pay.go": "package checkout\n\n// Payer takes a payment.\ntype Payer interface{ Pay(amount int) error }\n\n" +
			"// Card pays by card.\ntype Card struct{}\n\nfunc (Card) Pay(amount int) error { return nil }\n",
	})
	// The project's range ends at a listener of someone else's, which a
	// forged state file names below; the primary takes a free port under it.
	rec := listenRecorder(t, 0)
	writeConfig(t, root, fmt.Sprintf("code:\n  source_paths: [\".\"]\n  languages: []\nast:\n  source_paths: [\".\"]\n  languages: []\n"+
		"server:\n  port_range: \"%d-%d\"\n  auth: token\n", rec.port-7, rec.port))

	commands := [][]string{
		{"search", "sum the prices in the cart after the discount"},
		{"search", "--code", "--json", "-n", "3", "print an invoice as pdf"},
		{"search", "--standards", "--method", "lexical", "retry with exponential backoff"},
		{"graph", "callers", "applyDiscount"},
		{"graph", "path", "Checkout", "applyDiscount", "--json"},
		{"graph", "impls", "Payer"},
		{"graph", "deps", "Add"},             // ambiguous: the candidates on stderr, exit 1
		{"graph", "callers", "applyDiscont"}, // unknown: close names on stderr, exit 1
		{"graph", "callers", "checkout.Add"}, // named as a value, not called
	}
	// run runs every command with --verbose and returns what each printed,
	// the verbose line apart.
	run := func(wantWay string) []result {
		t.Helper()
		var rs []result
		for _, args := range commands {
			r := runAgentos(t, root, append(args, "--verbose")...)
			lines := strings.SplitAfter(r.stderr, "\n")
			if len(lines) == 0 || !strings.Contains(lines[0], wantWay) {
				t.Errorf("%v: stderr does not begin with %q:\n%s", args, wantWay, r.stderr)
			} else {
				r.stderr = strings.Join(lines[1:], "")
			}
			rs = append(rs, r)
		}
		return rs
	}
	same := func(how string, got, want []result) {
		t.Helper()
		for i := range commands {
			if got[i] != want[i] {
				t.Errorf("%v %s:\nexit %d, stdout:\n%s\nstderr:\n%s\nwithout a server: exit %d, stdout:\n%s\nstderr:\n%s",
					commands[i], how, got[i].code, got[i].stdout, got[i].stderr, want[i].code, want[i].stdout, want[i].stderr)
			}
		}
	}

	alone := run("loading the saved indexes: no server runs for this project")
	if !strings.Contains(alone[0].stdout, "cart/cart.go") || !strings.Contains(alone[0].stdout, "Cart.Total") ||
		!strings.Contains(alone[3].stdout, "cart.Cart.Total") || !strings.Contains(alone[5].stdout, "implementations of checkout.Payer") || !strings.Contains(alone[5].stdout, "checkout.Card  checkout/pay.go:7") ||
		alone[6].code != 1 || !strings.Contains(alone[6].stderr, "Candidates:") ||
		alone[7].code != 1 || !strings.Contains(alone[7].stderr, "applyDiscount") ||
		!strings.Contains(alone[8].stdout, "checkout.Ops  checkout/add.go:7  (a function value, not a call, with checkout.Add at line 7)") {
		t.Fatalf("without a server: %+v", alone)
	}

	primary := startServe(t, root, "--transport", "http")
	st := waitState(t, root, primary.cmd.Process.Pid)
	tok, err := os.ReadFile(filepath.Join(root, ".agentos", ".cache", "auth_token"))
	if err != nil {
		t.Fatal(err)
	}
	waitIndexes(t, httpClient(t, st.URL, map[string]string{"Authorization": "Bearer " + strings.TrimSpace(string(tok))}))
	same("through the server", run(fmt.Sprintf("the running server (pid %d) answered", st.PID)), alone)

	// The primary's pid at another port: every check passes but who answers.
	base := readStateMap(t, root)
	forgeState(t, root, base, map[string]any{"url": rec.url(), "port": rec.port})
	same("with a forged state file", run("loading the saved indexes: the state file is not trusted"), alone)
	for _, req := range rec.requests() {
		if req != "GET /mcp auth= body=" {
			t.Errorf("the forged URL received %q", req)
		}
	}
	if r := runAgentos(t, root, "status"); r.code != 1 || !strings.Contains(r.stdout, "stale or forged") {
		t.Errorf("status with the forged file: exit %d\n%s", r.code, r.stdout)
	}
	// The true file again: the server answers again.
	forgeState(t, root, base, nil)
	same("through the server again", run("answered"), alone)
}
