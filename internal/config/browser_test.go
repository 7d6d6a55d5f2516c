package config

import (
	"strings"
	"testing"
	"time"
)

func TestBrowserKeys(t *testing.T) {
	cfg, err := Parse([]byte("browser:\n  path: /usr/bin/chromium\n  allowed_hosts: [example.com, \"*.corp.test\"]\n  max_sessions: 4\n  idle_timeout: 90s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Browser.Path != "/usr/bin/chromium" || len(cfg.Browser.AllowedHosts) != 2 || cfg.Browser.MaxSessions != 4 {
		t.Errorf("browser = %+v", cfg.Browser)
	}
	if d, err := cfg.BrowserIdle(); err != nil || d != 90*time.Second {
		t.Errorf("idle = %v, %v", d, err)
	}
	def := Default()
	if d, err := def.BrowserIdle(); err != nil || d != 30*time.Minute || def.Browser.MaxSessions != 10 {
		t.Errorf("defaults: %+v %v %v", def.Browser, d, err)
	}
	for text, want := range map[string]string{
		"browser:\n  idle_timeout: soon\n":       "browser.idle_timeout",
		"browser:\n  idle_timeout: -5m\n":        "browser.idle_timeout",
		"browser:\n  max_sessions: 0\n":          "browser.max_sessions",
		"browser:\n  max_sessions: many\n":       "browser.max_sessions must be a number",
		"browser:\n  allowed_hosts: example.com": "browser.allowed_hosts must be a list",
		"browser:\n  headless: false\n":          `unknown key "browser.headless"`,
	} {
		if _, err := Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: want %q, got %v", text, want, err)
		}
	}
}
