package main

import (
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/sandbox"
)

func TestDoctorSaysWhetherGatesAreSandboxed(t *testing.T) {
	p := doctorProject(t, "", map[string]string{})
	c, ok := sandboxCheck(p)
	if !ok {
		t.Fatal("no sandbox check")
	}
	if err := sandbox.Check(); err != nil {
		if c.OK || !strings.Contains(c.Detail, "cannot run sandboxed here") || !strings.Contains(c.Fix, "workflow.sandbox: unsandboxed") {
			t.Fatalf("a system that cannot sandbox: %+v", c)
		}
	} else if !c.OK || c.Note || !strings.Contains(c.Detail, "without network") {
		t.Fatalf("a system that sandboxes: %+v", c)
	}
	p = doctorProject(t, "workflow:\n  sandbox: unsandboxed\n", map[string]string{})
	if c, _ := sandboxCheck(p); !c.OK || !c.Note || !strings.Contains(c.Detail, "full authority") {
		t.Fatalf("the weaker mode: %+v", c)
	}
}
