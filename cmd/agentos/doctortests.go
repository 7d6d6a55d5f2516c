package main

import (
	"context"
	"strings"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/trust"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// testCommandCheck is doctor's check of the test command spec_execution_v1's
// gates run: a project with tests needs one (without it no spec can be
// executed, which a person otherwise learns only after approving one), and
// the default's runner must be installed with what writes its reports.
func testCommandCheck(ctx context.Context, p project.Paths) (agentconfig.Check, bool) {
	cfg, _, err := trust.Load(p) // the command the gates run: an untrusted one is not (trustCheck says so)
	if err != nil {
		return agentconfig.Check{}, false // the config check says why
	}
	c := agentconfig.Check{Name: "test command"}
	d := testcmd.For(p.Root)
	cmd := cfg.Workflow.TestCommand
	if cmd == "" {
		cmd = d.Command
	}
	const set = "set workflow.test_command, workflow.coverage_file and workflow.test_report in .agentos/config/mcp.yaml (docs/configuration.md shows them for each runner)"
	switch {
	case cmd == "":
		tests := testcmd.HasTests(p.Root)
		if tests == "" {
			c.OK, c.Note = true, true
			c.Detail = "none yet: no tests and no test runner were found; executing a spec needs one"
			return c, true
		}
		c.Detail = "the project has tests (" + tests + ") but no test command, so no spec can be executed"
		if d.Runner != "" {
			c.Detail += "; agentos has no default for " + d.Runner
		}
		c.Fix = set
	case cmd != d.Command:
		c.OK = true
		c.Detail = "workflow.test_command: " + cmd + " (its tools are not checked: agentos chose no default for this project)"
	default:
		r := testcmd.Check(ctx, p.Root, d)
		if len(r.Problems) == 0 {
			c.OK = true
			c.Detail = d.Runner + ", with " + r.Found + ": " + cmd
			return c, true
		}
		var what, fix []string
		for _, pr := range r.Problems {
			what, fix = append(what, pr.What), append(fix, pr.Fix)
		}
		c.Detail = strings.Join(what, "; ") + ", so the gates' test command cannot run: " + cmd
		c.Fix = strings.Join(fix, "; ")
	}
	return c, true
}
