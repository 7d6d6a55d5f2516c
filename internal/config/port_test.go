package config

import (
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/assets"
)

func TestSetPortKeepsEveryOtherLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"replaces the value only",
			"server:\n  port: 4242   # mine\n  auth: none\n",
			"server:\n  port: 4300   # mine\n  auth: none\n"},
		{"adds under server, above the first key's comment",
			"code:\n  source_paths: [\".\"]\n\nserver:\n    # the range\n    port_range: \"4242-5242\"\n\n    auth: none\nlogging:\n  level: INFO\n",
			"code:\n  source_paths: [\".\"]\n\nserver:\n    " + strings.ReplaceAll(portComment, "\n", "\n    ") + "\n    port: 4300\n    # the range\n    port_range: \"4242-5242\"\n\n    auth: none\nlogging:\n  level: INFO\n"},
		{"adds a server section",
			"# just a comment\nlogging:\n  level: INFO",
			"# just a comment\nlogging:\n  level: INFO\n\nserver:\n  " + strings.ReplaceAll(portComment, "\n", "\n  ") + "\n  port: 4300\n"},
		{"fills an empty server key",
			"server:\nlogging:\n  level: INFO\n",
			"server:\n  " + strings.ReplaceAll(portComment, "\n", "\n  ") + "\n  port: 4300\nlogging:\n  level: INFO\n"},
		{"puts back a deleted port line under its comment, above the first key",
			"server:\n  " + strings.ReplaceAll(portComment, "\n", "\n  ") + "\n  auth: none\n",
			"server:\n  " + strings.ReplaceAll(portComment, "\n", "\n  ") + "\n  port: 4300\n  auth: none\n"},
		{"puts back a deleted port line under its comment, the server's only one",
			"server:\n    " + strings.ReplaceAll(portComment, "\n", "\n    ") + "\nlogging:\n  level: INFO\n",
			"server:\n    " + strings.ReplaceAll(portComment, "\n", "\n    ") + "\n    port: 4300\nlogging:\n  level: INFO\n"},
		{"keeps CRLF endings",
			"server:\r\n  port: 4242\r\n",
			"server:\r\n  port: 4300\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SetPort([]byte(c.in), 4300)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestSetPortRefusesWhatItCannotSpliceCleanly(t *testing.T) {
	for _, in := range []string{
		"server: {auth: none}\n",
		"server:\n  port: \"4242\"\n",
		"- a\n",
		"server:\n  port: [\n",
	} {
		if out, err := SetPort([]byte(in), 4300); err == nil {
			t.Errorf("%q: no error, got %q", in, out)
		}
	}
	// A port outside the range is refused by the loader, so SetPort too.
	if _, err := SetPort([]byte("server:\n  port_range: \"5000-5010\"\n"), 4300); err == nil || !strings.Contains(err.Error(), "outside server.port_range") {
		t.Errorf("err = %v, want the range named", err)
	}
}

func TestPortKey(t *testing.T) {
	cfg, err := Parse([]byte("server:\n  port: 4250\n"))
	if err != nil || cfg.Server.Port != 4250 {
		t.Fatalf("cfg = %+v, err = %v", cfg.Server, err)
	}
	if cfg, _ := Parse(nil); cfg.Server.Port != 0 {
		t.Errorf("default port = %d, want 0 (none recorded)", cfg.Server.Port)
	}
	for _, bad := range []string{"server:\n  port: 80\n", "server:\n  port: -1\n", "server:\n  port: abc\n"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q loaded", bad)
		}
	}
}

// The shipped template, rendered, must take a port the same way a user's
// file does.
func TestSetPortOnTheTemplate(t *testing.T) {
	text, err := assets.Read(assets.ConfigTemplate)
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(text), "\nserver:")
	end := strings.Index(string(text), "\nlogging:")
	section := string(text[start+1:end]) + "\n"
	section = strings.ReplaceAll(section, "{{quote .PortRange}}", `"4242-5242"`)
	section = strings.ReplaceAll(section, "{{.Auth}}", "none")
	got, err := SetPort([]byte(section), 4301)
	if err != nil {
		t.Fatalf("%v\n%s", err, section)
	}
	if strings.Count(string(got), "\n  port: ") != 1 {
		t.Errorf("server.port is not there once:\n%s", got)
	}
}
