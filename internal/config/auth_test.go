package config

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/assets"
)

// The block MigrateAuth writes is the template's, so a migrated project
// reads as a new install does.
func TestAuthBlockIsTheTemplates(t *testing.T) {
	tmpl, err := assets.Read(assets.ConfigTemplate)
	if err != nil {
		t.Fatal(err)
	}
	if want := joinLines(authBlockUser, "\n"); !strings.Contains(strings.Replace(string(tmpl), "auth: {{.Auth}}", "auth: "+AuthUser, 1), want) {
		t.Errorf("the template's server.auth block is not:\n%s", want)
	}
}

func TestMigrateAuth(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		old := "# mine" + eol + "server:" + eol + "  port: 4300   # kept" + eol + joinLines(authBlockNone, eol) + eol + "logging:" + eol + "  level: INFO" + eol
		out, ok := MigrateAuth([]byte(old))
		if !ok {
			t.Fatalf("%q: not migrated", eol)
		}
		want := strings.Replace(old, joinLines(authBlockNone, eol), joinLines(authBlockUser, eol), 1)
		if string(out) != want {
			t.Errorf("migrated:\n%q\nwant\n%q", out, want)
		}
		cfg, err := Parse(out)
		if err != nil || cfg.Server.Auth != AuthUser || cfg.Server.Port != 4300 {
			t.Errorf("%+v %v", cfg.Server, err)
		}
		if eol == "\n" && bytes.Contains(out, []byte("\r")) {
			t.Error("line endings changed")
		}
	}
	// A person's own choice, or an edited comment, stays.
	for _, mine := range []string{
		"server:\n  auth: none\n",
		"server:\n" + strings.Replace(joinLines(authBlockNone, "\n"), "any process on this machine.", "any process: we share this box on purpose.", 1) + "\n",
	} {
		if out, ok := MigrateAuth([]byte(mine)); ok || string(out) != mine {
			t.Errorf("a person's block was rewritten:\n%s", out)
		}
	}
}
