package workflow

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBeforeLayer: the code the before-run sees is the session's, with the
// functions it added or changed emptied and the sources it deleted restored;
// tests, files that are no code, and links are left as they are.
func TestBeforeLayer(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e, root := testEngine(t)
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("cart.go", "package m\n\nfunc Kept() int { return 1 }\n\nfunc Changed() int { return 2 }\n")
	write("old.py", "def gone():\n    return 3\n")
	write("notes.md", "before\n")
	ctx := context.Background()
	base, err := e.snapshot(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	// The session's work.
	write("cart.go", "package m\n\nfunc Kept() int { return 1 }\n\nfunc Changed() int { return 20 }\n\nfunc Added() string { return \"x\" }\n")
	write("cart_test.go", "package m\n\nimport \"testing\"\n\nfunc TestAdded(t *testing.T) {\n\tif Added() != \"x\" {\n\t\tt.Fatal()\n\t}\n}\n")
	write("notes.md", "after\n")
	os.Remove(filepath.Join(root, "old.py"))
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("package m\n\nfunc Secret() {}\n"), 0o600)
	if err := os.Symlink(secret, filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}

	layer := t.TempDir()
	emptied, err := e.fillBeforeLayer(ctx, e.gateTree("s1", base), layer)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(emptied)
	if want := []string{"cart.go: Added", "cart.go: Changed"}; !slices.Equal(emptied, want) {
		t.Errorf("emptied %v, want %v", emptied, want)
	}
	cart, _ := os.ReadFile(filepath.Join(layer, "cart.go"))
	if !strings.Contains(string(cart), "func Kept() int { return 1 }") || strings.Contains(string(cart), "return 20") || strings.Contains(string(cart), `return "x"`) {
		t.Errorf("cart.go before the change:\n%s", cart)
	}
	if old, _ := os.ReadFile(filepath.Join(layer, "old.py")); string(old) != "def gone():\n    return 3\n" {
		t.Errorf("old.py not restored: %q", old)
	}
	for _, rel := range []string{"cart_test.go", "notes.md", "link.go"} {
		if _, err := os.Lstat(filepath.Join(layer, rel)); err == nil {
			t.Errorf("%s is in the layer; it should stay as the session left it", rel)
		}
	}
	e.dropBaseIndex("s1")
	if _, err := os.Stat(e.baseIndex("s1")); err == nil {
		t.Error("the ended session's index is still there")
	}
	// The project's own .git is never git's repository here.
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		t.Error("a .git was made in the project")
	}
}

// TestSnapshotRunsNothingTheProjectNames: the project is input. A
// .gitattributes that names a filter runs nothing, even one the person's
// own git config defines, and a .git/config of the project is not read.
func TestSnapshotRunsNothingTheProjectNames(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e, root := testEngine(t)
	marker := filepath.Join(t.TempDir(), "ran")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	filter := "[filter \"evil\"]\n\tclean = sh -c 'touch " + marker + "; cat'\n[core]\n\tfsmonitor = sh -c 'touch " + marker + "'\n"
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(filter), 0o644)
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "config"), []byte(filter), 0o644)
	os.WriteFile(filepath.Join(root, ".gitattributes"), []byte("* filter=evil\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	if _, err := e.snapshot(context.Background(), "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("taking the base ran a command a config named")
	}
}

// TestSessionDiff: the session's change since its base, both sides from the
// base store, as the coverage check reads it for exclusions it added.
func TestSessionDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e, root := testEngine(t)
	os.WriteFile(filepath.Join(root, "old.py"), []byte("def f():\n    return 1\n"), 0o644)
	ctx := context.Background()
	base, err := e.snapshot(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "old.py"), []byte("def f():\n    return 1\n\n\ndef g():  # pragma: no cover\n    return 2\n"), 0o644)
	os.WriteFile(filepath.Join(root, "new.py"), []byte("x = 1\n"), 0o644)
	os.WriteFile(filepath.Join(root, "new.go"), []byte("package m\n"), 0o644)
	diff, err := e.gateTree("s1", base).sessionDiff(ctx, []string{"*.py"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+++ b/old.py", "@@ -2,0 +3,4 @@", "+def g():  # pragma: no cover", "+++ b/new.py", "@@ -0,0 +1 @@"} {
		if !strings.Contains(string(diff), want) {
			t.Errorf("the diff lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(string(diff), "new.go") {
		t.Errorf("the diff holds a file no pattern names:\n%s", diff)
	}
}
