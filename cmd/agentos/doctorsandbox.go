package main

import (
	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/internal/trust"
)

// sandboxCheck is doctor's check that the gates' commands can run
// sandboxed here. Where they cannot, no execution gate passes until the
// person lets the system sandbox or chooses the weaker mode by name; doctor
// says so before a spec is approved, not after.
func sandboxCheck(p project.Paths) (agentconfig.Check, bool) {
	cfg, _, err := trust.Load(p) // workflow.sandbox: unsandboxed counts once trusted
	if err != nil {
		return agentconfig.Check{}, false // the config check says why
	}
	c := agentconfig.Check{Name: "gate sandbox"}
	err = sandbox.Check()
	switch {
	case cfg.Workflow.Sandbox == config.SandboxUnsandboxed:
		c.OK, c.Note = true, true
		c.Detail = "off by workflow.sandbox: unsandboxed: the gates run the agent's tests with your full authority"
		if err == nil {
			c.Detail += " although this system can sandbox them; remove the setting to sandbox them"
		}
	case err != nil:
		c.Detail = "the gates' commands cannot run sandboxed here, so execution gates fail: " + err.Error()
		c.Fix = sandboxFix
	default:
		c.OK = true
		c.Detail = "the gates run tests without network, secrets or writes outside a throwaway copy"
	}
	return c, true
}

// sandboxFix is what a person can do where the system cannot sandbox.
const sandboxFix = sandbox.Remedy + ", or accept the weaker mode with workflow.sandbox: unsandboxed in .agentos/config/mcp.yaml"
