package config

import (
	"strings"
	"testing"
	"time"
)

func TestSpecsCheckEvery(t *testing.T) {
	cfg, err := Parse([]byte("workflow:\n  specs_check_every: 24h\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := cfg.SpecsCheckInterval(); err != nil || d != 24*time.Hour {
		t.Errorf("24h: %v, %v", d, err)
	}
	if d, err := Default().SpecsCheckInterval(); err != nil || d != 0 {
		t.Errorf("the default must be never: %v, %v", d, err)
	}
	for _, bad := range []string{"often", "1m", "-1h"} {
		if _, err := Parse([]byte("workflow:\n  specs_check_every: " + bad + "\n")); err == nil || !strings.Contains(err.Error(), "workflow.specs_check_every") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
