package shellquote

import (
	"os/exec"
	"runtime"
	"testing"
)

// Every quoted word reads back as itself through a real sh.
func TestPOSIXRoundTrips(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	for _, w := range []string{"plain", "/home/ann/my project", "it's", `a"b`, "$HOME", "`id`", "a\\b", "x;y", "", "tab\there", "new\nline", "ünï"} {
		out, err := exec.Command(sh, "-c", "printf %s "+POSIX(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("%q: quoted %s, read back %q (%v)", w, POSIX(w), out, err)
		}
	}
	if POSIX("/usr/bin/agentos") != "/usr/bin/agentos" {
		t.Error("a safe word is quoted")
	}
}

func TestCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX quoting")
	}
	if got := Command("/a b/agentos", "serve", "--dir", "/x's"); got != `'/a b/agentos' serve --dir '/x'\''s'` {
		t.Errorf("%s", got)
	}
}
