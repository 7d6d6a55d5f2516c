package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func testProfile(t *testing.T) (string, []string) {
	t.Helper()
	sb := seatbelt{
		Writable:   []string{"/private/var/folders/x/T/agentos-gate-1/copy", "/private/var/folders/x/T/agentos-gate-1/tmp"},
		ReadOnly:   []string{"/private/var/folders/x/T/agentos-gate-1/copy/.agentos/state"},
		Unreadable: []string{"/Users/p/.ssh", "/Users/p/project"},
	}
	text, err := sb.profile()
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if !strings.HasPrefix(l, ";") {
			rules = append(rules, l)
		}
	}
	return text, rules
}

func index(t *testing.T, rules []string, prefix string) int {
	t.Helper()
	for i, r := range rules {
		if strings.HasPrefix(r, prefix) {
			return i
		}
	}
	t.Fatalf("no rule starts with %q:\n%s", prefix, strings.Join(rules, "\n"))
	return -1
}

func TestProfileAllowsOnlyWhatItMeans(t *testing.T) {
	text, rules := testProfile(t)
	if rules[0] != "(version 1)" || rules[1] != "(allow default)" {
		t.Fatalf("the profile does not start from allowing everything:\n%s", text)
	}
	for _, r := range rules {
		if strings.Count(r, "(") != strings.Count(r, ")") {
			t.Errorf("unbalanced rule: %s", r)
		}
		if strings.HasPrefix(r, "(allow network") && !strings.Contains(r, "unix-socket (subpath \"/private/var/folders/x/T/agentos-gate-1/") {
			t.Errorf("a network rule allows more than the sandbox's own sockets: %s", r)
		}
		if strings.HasPrefix(r, "(allow mach-lookup") {
			for _, bad := range []string{"launchservicesd", "securityd", "SecurityServer", "pasteboard", "windowserver", "appleevents"} {
				if strings.Contains(strings.ToLower(r), strings.ToLower(bad)) {
					t.Errorf("the profile lets the command reach %s", bad)
				}
			}
		}
	}
	// Each exception follows the denial it narrows: SBPL applies the last
	// rule that matches.
	for _, order := range [][2]string{
		{"(deny network*)", "(allow network-outbound (remote unix-socket"},
		{"(deny mach-lookup)", "(allow mach-lookup"},
		{"(deny signal)", "(allow signal (target same-sandbox))"},
		{"(deny process-info*)", "(allow process-info* (target same-sandbox))"},
		{"(deny process-info-pidinfo)", "(allow process-info-pidinfo (target same-sandbox))"},
		{"(deny mach-priv-task-port)", "(allow mach-priv-task-port (target same-sandbox))"},
		{"(deny file-write*)", "(allow file-write* (subpath \"/private/var/folders/x/T/agentos-gate-1/copy\")"},
		{"(allow file-write*", "(deny file-write* (subpath \"/private/var/folders/x/T/agentos-gate-1/copy/.agentos/state\"))"},
	} {
		if a, b := index(t, rules, order[0]), index(t, rules, order[1]); a >= b {
			t.Errorf("%q should come before %q", order[0], order[1])
		}
	}
	for _, r := range []string{"(deny file-link file-clone)", "(deny appleevent-send)", "(deny job-creation)", "(deny lsopen)", "(deny mach-register)", `(deny sysctl-read (sysctl-name-prefix "kern.procargs"))`} {
		index(t, rules, r)
	}
	// Nothing may allow the secrets back: their denial is the last rule.
	last := rules[len(rules)-1]
	if last != `(deny file-read* file-write* (subpath "/Users/p/.ssh") (subpath "/Users/p/project") (regex #"^/dev/ttys[0-9]+$"))` {
		t.Errorf("the last rule is %s", last)
	}
	if !strings.Contains(text, `(literal "/dev/null")`) {
		t.Error("the command cannot write /dev/null")
	}
}

func TestProfileRefusesPathsThatCouldEndItsStrings(t *testing.T) {
	for _, p := range []string{`/tmp/a"b`, `/tmp/a\b`, "/tmp/a\nb", "relative/path"} {
		for _, sb := range []seatbelt{
			{Writable: []string{p}},
			{Writable: []string{"/tmp/ok"}, ReadOnly: []string{p}},
			{Writable: []string{"/tmp/ok"}, Unreadable: []string{p}},
		} {
			if text, err := sb.profile(); err == nil {
				t.Errorf("%q was written into a profile:\n%s", p, text)
			}
		}
	}
	if _, err := (seatbelt{}).profile(); err == nil {
		t.Error("a profile with nowhere to write was made")
	}
}

func TestRealPathResolvesWhatExists(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links need a privilege on Windows")
	}
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "home"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if got, want := realPath(filepath.Join(dir, "link", ".aws", "credentials")), filepath.Join(real, "home", ".aws", "credentials"); got != want {
		t.Errorf("realPath = %s, want %s", got, want)
	}
	got := unreadable([]string{filepath.Join(dir, "link", ".ssh"), filepath.Join(dir, "link", ".ssh"), "relative"})
	if len(got) != 2 || got[0] != filepath.Join(dir, "link", ".ssh") || got[1] != filepath.Join(real, "home", ".ssh") {
		t.Errorf("unreadable = %v", got)
	}
}
