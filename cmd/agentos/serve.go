package main

import (
	"errors"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/logging"
	"github.com/agentos-dev/agentos/server"
)

func newServeCmd(s *streams) *cobra.Command {
	var transport, logLevel, root string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the MCP tool server for this project",
		Long: `Serve runs the agentos MCP server. The agent's IDE launches it; you rarely run it by hand.

Transports:
  dual   stdio for the IDE that launched it, and streamable HTTP on 127.0.0.1 for
         every other agent, on server.port from .agentos/config/mcp.yaml (the next
         free port of server.port_range when another program holds it; the port
         in use is in .agentos/.mcp_server_state.json). What install configures.
  stdio  the launching IDE only.
  http   HTTP only, for tests and services.

One server per project. A dual or stdio serve that finds one running becomes a
bridge to it, so every agent shares one server; when that server exits, one
bridge takes over as the server (on the same port) and the others follow it.
An http serve that finds one running exits with code 4, naming it.

The project is --project-root (or --dir), else $PROJECT_ROOT, else the nearest folder at or above
the working directory that holds .agentos/. Logs go to stderr and
.agentos/.cache/logs/server.log; stdout is reserved for the protocol.

` + exitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := server.ParseTransport(transport)
			if err != nil {
				return withCode(exitUsage, err)
			}
			p, cfg, loaded, err := openProject(root)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("log-level") {
				logLevel = cfg.Logging.Level
			}
			level, err := logging.ParseLevel(logLevel)
			if err != nil {
				return withCode(exitUsage, err)
			}
			log, closeLog, err := logging.New(level, s.RawErr, p.ServerLog())
			if err != nil {
				return err
			}
			defer closeLog()
			if loaded.Missing {
				log.Warn("no configuration file; using defaults", "path", p.Config())
			}
			if notice := loaded.Trust.Notice(); notice != "" {
				log.Warn(notice)
			}
			// An IDE may close its end of stderr before the server has
			// shut down; a log line must not then kill the server with
			// SIGPIPE before it saves its indexes and removes its state file.
			signal.Ignore(syscall.SIGPIPE)
			log.Info("starting", "project", p.Root, "transport", t)
			err = server.Run(cmd.Context(), server.Options{
				Project:   p,
				Config:    cfg,
				Untrusted: loaded.Trust.Notice(),
				Transport: t,
				Logger:    log,
				Stdin:     s.In,
				Stdout:    s.RawOut,
			})
			var running *server.AlreadyRunningError
			var noPort *server.NoFreePortError
			switch {
			case errors.As(err, &running), errors.As(err, &noPort):
				return withCode(exitConflict, err)
			case err != nil:
				log.Error("server stopped", "err", err)
				return err
			}
			log.Info("stopped")
			return nil
		},
	}
	cmd.Flags().StringVar(&transport, "transport", "dual", "dual, stdio or http")
	cmd.Flags().StringVar(&logLevel, "log-level", "INFO", "DEBUG, INFO, WARN or ERROR (default: logging.level from the config)")
	cmd.Flags().StringVar(&root, "project-root", "", "project folder (default: $PROJECT_ROOT, else found from the working directory)")
	// --dir, as every other command names the project folder; --project-root
	// stays for the entries agentos has written into clients' configs.
	cmd.Flags().StringVar(&root, "dir", "", "the same as --project-root")
	cmd.RegisterFlagCompletionFunc("transport", fixedCompletion("dual", "stdio", "http"))
	cmd.RegisterFlagCompletionFunc("log-level", fixedCompletion(config.LogLevels...))
	return cmd
}

func fixedCompletion(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, strings.ToUpper(prefix)) || strings.HasPrefix(v, prefix) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
