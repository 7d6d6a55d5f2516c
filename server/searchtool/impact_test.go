package searchtool

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
)

// gitIn runs git in dir with a fixed identity and no user configuration.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestImpactAction(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	p := newProject(t)
	writeFiles(t, p.Root, map[string]string{
		".gitignore":                "/.agentos/.cache/\n",
		"checkout/checkout_test.go": "package checkout\n\nimport (\n\t\"testing\"\n\n\t\"example.com/shop/cart\"\n)\n\nfunc TestCheckout(t *testing.T) { Checkout(&cart.Cart{}) }\n",
	})
	gitIn(t, p.Root, "init", "-q", "-b", "main")
	gitIn(t, p.Root, "add", ".")
	gitIn(t, p.Root, "commit", "-q", "-m", "shop")
	e := startService(t, p, config.Default())
	e.waitReady(t)

	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "impact", "query": "applyDiscount"})
	im := out.Impact
	if im == nil || len(im.Changed) != 1 || im.Changed[0].Symbol != "cart.applyDiscount" || im.SpecsTraced || im.Criteria != nil {
		t.Fatalf("impact: %+v", out)
	}
	if len(im.Callers) != 2 || im.Callers[0].Symbol != "cart.Cart.Total" || im.Callers[1].Symbol != "checkout.Checkout" {
		t.Errorf("callers: %+v", im.Callers)
	}
	if len(im.Tests) != 1 || im.Tests[0].Symbol != "checkout.TestCheckout" ||
		strings.Join(im.Tests[0].Why, " > ") != "checkout.TestCheckout > checkout.Checkout > cart.Cart.Total > cart.applyDiscount" {
		t.Errorf("tests: %+v", im.Tests)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "impact", "query": "applyDiscount", "max_depth": 1})
	if len(out.Impact.Callers) != 1 || len(out.Impact.Tests) != 1 {
		t.Errorf("depth 1 lists one caller and still the test: %+v", out.Impact)
	}

	// A change not committed: the diff against HEAD names the symbol whose lines changed.
	src := filepath.Join(p.Root, "checkout", "checkout.go")
	b, _ := os.ReadFile(src)
	os.WriteFile(src, []byte(strings.Replace(string(b), "return amount", "return amount + 1", 1)), 0o644)
	// A file that is not code is named; agentos's own files are not.
	writeFiles(t, p.Root, map[string]string{"NOTES.txt": "remember the tax\n", ".agentos/standards/development/tax.md": "# Tax\n\nRound once.\n"})
	// The edit moves no line, so its line lies in charge in the graph before
	// and after the watcher re-indexes the file (which never takes the file
	// out of the graph on the way: search.TestSearchDuringUpdates).
	waitFor(t, "the change indexed", func() bool {
		out = e.mustCall(t, "svc_search_project", map[string]any{"action": "impact", "diff_base": "HEAD"})
		return out.Impact != nil && len(out.Impact.Changed) > 0
	})
	if out.Impact == nil || out.Impact.DiffBase != "HEAD" || len(out.Impact.Changed) != 1 || out.Impact.Changed[0].Symbol != "checkout.charge" ||
		len(out.Impact.Tests) != 1 || out.Impact.Tests[0].Confidence != "exact" || !slices.Equal(out.Impact.OtherFiles, []string{"NOTES.txt"}) {
		t.Errorf("diff impact: %+v", out.Impact)
	}

	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"action": "impact"}, "query"},
		{map[string]any{"action": "impact", "query": "charge", "diff_base": "HEAD"}, "diff_base"},
		{map[string]any{"action": "impact", "diff_base": "no-such-revision"}, "diff_base"},
		{map[string]any{"action": "impact", "query": "charge", "n_results": 51}, "n_results"},
		{map[string]any{"action": "find_callers", "query": "charge", "diff_base": "HEAD"}, "diff_base"},
	} {
		_, te := e.call(t, "svc_search_project", c.args)
		if te == nil || te.Code != "VALIDATION_ERROR" || te.Details.(map[string]any)["field"] != c.field {
			t.Errorf("%v: %+v, want a validation error of %s", c.args, te, c.field)
		}
	}
}

func TestImpactDiffOutsideGit(t *testing.T) {
	e := startService(t, newProject(t), config.Default())
	e.waitReady(t)
	_, te := e.call(t, "svc_search_project", map[string]any{"action": "impact", "diff_base": "HEAD"})
	if te == nil || !strings.Contains(te.Message, "not in a git work tree") {
		t.Errorf("diff outside git: %+v", te)
	}
}
