//go:build darwin || windows

package sandbox

// The Linux tests' promises, kept on macOS and Windows. They run where the
// system sandboxes (Check passes) and say why not elsewhere.

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sh picks the command line for this system's shell: /bin/sh or cmd.exe.
func sh(unix, windows string) string {
	if runtime.GOOS == "windows" {
		return windows
	}
	return unix
}

func newCopySandbox(t *testing.T) (*Sandbox, string) {
	t.Helper()
	if err := Check(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs where the system sandboxes: %v", err)
		}
		t.Skipf("no sandbox here: %v", err)
	}
	project := t.TempDir()
	writeTree(t, project, map[string]string{
		"main.go":                    "package main\n",
		"stale.xml":                  "<old/>\n",
		".agentos/.cache/auth_token": "secret-token\n",
		".agentos/state/approvals/x": "approved\n",
		".agentos/bin/agentos":       "binary\n",
	})
	s, err := New(project, Options{Hidden: []string{".agentos/state"}, Outputs: ".agentos/.cache"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, project
}

func TestCheckSandboxesHere(t *testing.T) {
	if err := Check(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

func TestCopyTakesTheWrites(t *testing.T) {
	s, project := newCopySandbox(t)
	out, code := run(t, s, sh(
		`echo changed > main.go && echo new > new.txt && printf report > .agentos/.cache/junit.xml && cat main.go`,
		`echo changed> main.go && echo new> new.txt && echo report> .agentos\.cache\junit.xml && type main.go`))
	if code != 0 || !strings.Contains(out, "changed") {
		t.Fatalf("the command should see its own writes: %d %q", code, out)
	}
	if got := readFile(t, filepath.Join(project, "main.go")); got != "package main\n" {
		t.Errorf("the real project was written: main.go = %q", got)
	}
	if _, err := os.Stat(filepath.Join(project, "new.txt")); err == nil {
		t.Error("new.txt reached the real project")
	}
	for rel, want := range map[string]string{"new.txt": "new", ".agentos/.cache/junit.xml": "report"} {
		p, ok := s.Path(rel)
		if !ok {
			t.Errorf("%s cannot be read after the run", rel)
		} else if got := strings.TrimSpace(readFile(t, p)); got != want {
			t.Errorf("%s = %q", rel, got)
		}
	}
	for _, rel := range []string{"missing.txt", "stale.xml", ".agentos/state/approvals/x"} {
		if _, ok := s.Path(rel); ok {
			t.Errorf("%s, which the run did not write, was reported as written", rel)
		}
	}
}

func TestCopySecretsAreUnreadable(t *testing.T) {
	s, project := newCopySandbox(t)
	t.Setenv("OPENAI_API_KEY", "sk-live")
	token := filepath.Join(project, ".agentos", ".cache", "auth_token")
	out, _ := run(t, s, sh(
		`cat .agentos/.cache/auth_token "`+token+`"; ls .agentos/state; echo "key=$OPENAI_API_KEY"; echo end`,
		`type .agentos\.cache\auth_token & type "`+token+`" & dir /b .agentos\state & echo key=%OPENAI_API_KEY% & echo end`))
	for _, secret := range []string{"secret-token", "approvals", "sk-live"} {
		if strings.Contains(out, secret) {
			t.Errorf("the sandbox read %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "end") {
		t.Errorf("the command did not run to its end:\n%s", out)
	}
}

func TestCopyWritesNothingOutside(t *testing.T) {
	s, _ := newCopySandbox(t)
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := run(t, s, sh(
		`echo x > "`+victim+`"; rm -f "`+victim+`"; echo x > "`+outside+`/f"; echo x > "$TMPDIR/ok" && echo tmp-ok`,
		`echo x> "`+victim+`" & del /f "`+victim+`" & echo x> "`+outside+`\f" & echo x> "%TEMP%\ok" && echo tmp-ok`))
	if got := readFile(t, victim); got != "keep" {
		t.Errorf("a file outside the copy was changed: %q\n%s", got, out)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); err == nil {
		t.Error("a file was written outside the copy")
	}
	if !strings.Contains(out, "tmp-ok") {
		t.Errorf("the private temporary folder is not writable:\n%s", out)
	}
}

func TestCopyNoNetwork(t *testing.T) {
	s, _ := newCopySandbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	out, _ := run(t, s, sh(
		`nc -z -w 2 127.0.0.1 `+port+` && echo connected; echo end`,
		`curl.exe -s -m 2 http://127.0.0.1:`+port+`/ && echo connected & echo end`))
	select {
	case <-accepted:
		t.Fatalf("the sandbox reached the machine's loopback:\n%s", out)
	case <-time.After(300 * time.Millisecond):
	}
}

func TestCopyEveryProcessEndsWithTheCommand(t *testing.T) {
	s, _ := newCopySandbox(t)
	// The child left behind appends to a file for as long as it lives.
	out, code := run(t, s, sh(
		`(while :; do echo x >> .agentos/.cache/late; done) </dev/null >/dev/null 2>&1 & echo started`,
		`start /b cmd /c "for /l %i in (0,0,1) do @echo x>> .agentos\.cache\late" & echo started`))
	if code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("%d %q", code, out)
	}
	late := filepath.Join(s.copyDir(), ".agentos", ".cache", "late")
	size := func() int64 {
		if fi, err := os.Stat(late); err == nil {
			return fi.Size()
		}
		return -1
	}
	before := size()
	time.Sleep(time.Second)
	if after := size(); after != before {
		t.Fatalf("a child outlived the command: its file grew from %d to %d bytes", before, after)
	}
}

func TestCopyExitStatus(t *testing.T) {
	s, _ := newCopySandbox(t)
	if out, code := run(t, s, "exit 3"); code != 3 {
		t.Fatalf("exit status %d, want 3 (%s)", code, out)
	}
}

func TestCopyLayerShadowsTheProject(t *testing.T) {
	s, project := newCopySandbox(t)
	if err := os.WriteFile(filepath.Join(s.Layer(), "main.go"), []byte("package stub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, s, sh(`cat main.go`, `type main.go`))
	if code != 0 || strings.TrimSpace(out) != "package stub" {
		t.Fatalf("the layer does not shadow the project: %d %q", code, out)
	}
	if got := readFile(t, filepath.Join(project, "main.go")); got != "package main\n" {
		t.Errorf("the project changed: %q", got)
	}
	if _, ok := s.Path("main.go"); ok {
		t.Error("the layer's file passes for one the run wrote")
	}
}

func TestCopyRemoveHidesAFile(t *testing.T) {
	s, project := newCopySandbox(t)
	s.Remove("main.go")
	out, code := run(t, s, sh(`test ! -e main.go`, `if exist main.go exit 1`))
	if code != 0 {
		t.Fatalf("main.go is still seen: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(project, "main.go")); err != nil {
		t.Errorf("the removal reached the real project: %v", err)
	}
}

// A link (or a junction) the run made never points the reader outside.
func TestCopyPathRefusesLinksTheRunMade(t *testing.T) {
	s, _ := newCopySandbox(t)
	out, code := run(t, s, sh(
		`ln -s /etc reports && ln -s /etc/hosts report.xml && mkdir -p real && echo ok > real/r.xml`,
		`mklink /J reports C:\Windows && mkdir real && echo ok> real\r.xml`))
	if code != 0 {
		t.Fatalf("%d %s", code, out)
	}
	for _, rel := range []string{sh("reports/hosts", "reports/win.ini"), "report.xml"} {
		if p, ok := s.Path(rel); ok {
			t.Errorf("Path(%q) = %s, through a link the run made", rel, p)
		}
	}
	if _, ok := s.Path("real/r.xml"); !ok {
		t.Error("a file the run wrote in a folder of its own is not found")
	}
}

// The command runs in the copy, at the path Seen names.
func TestCopyIsWhereTheCommandRuns(t *testing.T) {
	s, project := newCopySandbox(t)
	out, code := run(t, s, sh(`pwd`, `cd`))
	got := strings.TrimSpace(out)
	if code != 0 || !(got == s.Seen() || runtime.GOOS == "windows" && strings.EqualFold(got, s.Seen())) {
		t.Fatalf("the command ran in %q (%d), not in %s", got, code, s.Seen())
	}
	if s.Seen() == project || s.Project() != realPath(project) {
		t.Errorf("Seen = %s, Project = %s, for the project %s", s.Seen(), s.Project(), project)
	}
}
