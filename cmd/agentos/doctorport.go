package main

import (
	"context"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
)

// appendPortCheck adds doctor's check that the project's recorded port
// (server.port) is its own: when it is busy, or another project records
// it, one project's HTTP clients reach the other's server and report
// "connected". It adds nothing when all is well: the server check already
// names the URL.
func appendPortCheck(ctx context.Context, p project.Paths, checks []agentconfig.Check) []agentconfig.Check {
	problem, fix := portConflict(ctx, p, server.ProbeProject(ctx, p))
	if problem == "" {
		return checks
	}
	return append(checks, agentconfig.Check{Name: "server port", Detail: problem, Fix: fix})
}

// portConflict is what keeps the project at p from its recorded port, seen
// from the probe of its server, and the fix; "" when nothing does, or when
// the config does not load (the config check says why).
func portConflict(ctx context.Context, p project.Paths, pr server.Probe) (problem, fix string) {
	cfg, err := config.Load(p.Config())
	if err != nil {
		return "", ""
	}
	listening := 0
	if pr.Running && pr.State != nil {
		listening = pr.State.Port
	}
	return server.PortConflict(ctx, p.Root, cfg.Server.Port, listening)
}
