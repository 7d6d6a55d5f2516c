package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/buildinfo"
)

// Exit codes. They are part of the CLI's contract: scripts and the doctor rely on them.
const (
	exitOK       = 0 // success; for status: the server is running
	exitFailure  = 1 // the command failed; for status: the server is not running
	exitUsage    = 2 // bad flags or arguments
	exitProject  = 3 // no .agentos/ found, or its configuration is invalid
	exitConflict = 4 // another server already serves the project, or no free port
)

const exitCodesHelp = `Exit codes:
  0  success (status: the server is running)
  1  failure (status: the server is not running)
  2  bad flags or arguments
  3  no .agentos/ found, or .agentos/config/mcp.yaml is invalid
  4  another server already serves this project, or no free port in the range`

// streams are the command's standard files, swapped in tests.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// InFile and OutFile are set when In and Out are real files (for TTY checks and stdio serving).
	InFile, OutFile *os.File
	// RawOut and RawErr are Out and Err before run made them terminal-safe:
	// for the MCP messages of stdio serving and the escapes agentos draws on
	// purpose (progress bars, the install wizard). Nothing read from a
	// project file is written to them.
	RawOut, RawErr io.Writer
}

// terminalSafe returns s with Out and Err escaping control characters
// (terminalSafe), and a function that flushes them.
func (s *streams) terminalSafe() (*streams, func()) {
	safe := *s
	out, errw := &terminalSafe{w: s.Out}, &terminalSafe{w: s.Err}
	safe.Out, safe.Err, safe.RawOut, safe.RawErr = out, errw, s.Out, s.Err
	return &safe, func() { out.Flush(); errw.Flush() }
}

func stdStreams() *streams {
	return &streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, InFile: os.Stdin, OutFile: os.Stdout}
}

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// silentExit ends a command with a code after it has printed what it had to say.
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }

func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentos",
		Short: "Standards, code search and phase-gated workflows for AI coding agents",
		Long: `agentos gives AI coding agents a project's engineering standards, a search over its
code, and phase-gated workflows from idea to specification to tested code.

  agentos install --dir PATH --yes   put .agentos/ into a project and configure an agent
  agentos serve                      run the MCP tool server (launched by the agent's IDE)
  agentos status                     show whether this project's server is running

` + exitCodesHelp,
		Version:       buildinfo.Get().Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetVersionTemplate("agentos {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return withCode(exitUsage, fmt.Errorf("%w\nSee '%s --help'.", err, c.CommandPath()))
	})
	root.AddCommand(
		newServeCmd(s),
		newInstallCmd(s),
		newAgentsCmd(s),
		newConnectCmd(s),
		newDoctorCmd(s),
		newTrustCmd(s),
		newUninstallCmd(s),
		newUpgradeCmd(s),
		newRollbackCmd(s),
		newStatusCmd(s),
		newStandardsCmd(s),
		newWorkflowCmd(s),
		newSpecsCmd(s),
		newReviewCmd(s),
		newIndexCmd(s),
		newSearchCmd(s),
		newGraphCmd(s),
		newVersionCmd(s),
		newModelsCmd(s),
	)
	refuseUnknownSubcommands(root)
	return root
}

// refuseUnknownSubcommands makes each group of commands that does nothing
// itself (workflow, models) refuse a word that is none of its commands:
// cobra shows such a group's help for `agentos workflow frob` and exits 0,
// so a mistyped command looked like it had worked.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		refuseUnknownSubcommands(sub)
	}
	if !c.HasParent() || !c.HasSubCommands() || c.Runnable() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		// In cobra's words, which plainArgsError says again.
		return fmt.Errorf("unknown command %q for %q", args[0], c.CommandPath())
	}
}

// run executes the CLI and returns the process exit code.
func run(ctx context.Context, args []string, s *streams) int {
	s, flush := s.terminalSafe()
	defer flush()
	root := newRootCmd(s)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var quiet silentExit
	if errors.As(err, &quiet) {
		return int(quiet)
	}
	if isUsageError(err) && cmd != nil {
		err = plainArgsError(cmd, err)
	}
	fmt.Fprintln(s.Err, "agentos:", err)
	var coded *exitError
	if errors.As(err, &coded) {
		return coded.code
	}
	if isUsageError(err) {
		// cobra's argument errors say what was wrong, not how to call it.
		if cmd != nil && !strings.Contains(err.Error(), "--help") {
			fmt.Fprintf(s.Err, "Usage: %s\nSee '%s --help'.\n", cmd.UseLine(), cmd.CommandPath())
		}
		return exitUsage
	}
	return exitFailure
}

// cobraArgCount is the count of arguments cobra's argument errors end with
// ("accepts 1 arg(s), received 0").
var cobraArgCount = regexp.MustCompile(`^(accepts|requires at least|requires at most) .*received (\d+)$`)

// plainArgsError says a cobra argument error in the command's own terms:
// "workflow show takes SESSION; given no argument" for "accepts 1 arg(s),
// received 0", `doctor takes no argument; given "x"` for cobra's "unknown
// command" of a command without subcommands, and the subcommands there are
// for one with them.
func plainArgsError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	takes := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(cmd.Use, cmd.Name()), "[flags]"))
	if takes == "" {
		takes = "no argument"
	}
	if m := cobraArgCount.FindStringSubmatch(msg); m != nil {
		given := m[2] + " arguments"
		switch m[2] {
		case "0":
			given = "no argument"
		case "1":
			given = "one argument"
		}
		return usageError{fmt.Errorf("%s takes %s; given %s", name, takes, given)}
	}
	arg, ok := strings.CutPrefix(msg, "unknown command ")
	arg, _, _ = strings.Cut(arg, "\n") // cobra's suggestions, made again below
	k := strings.LastIndex(arg, " for ")
	if !ok || k <= 0 {
		return err
	}
	if cmd.HasAvailableSubCommands() {
		what := name + " has no command " + arg[:k]
		if !cmd.HasParent() {
			what = "there is no command " + arg[:k]
		}
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2 // cobra's default, which it sets only where it suggests
		}
		typed, _ := strconv.Unquote(arg[:k])
		if s := cmd.SuggestionsFor(typed); len(s) > 0 {
			return usageError{fmt.Errorf("%s; did you mean %s?", what, strings.Join(s, " or "))}
		}
		var subs []string
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				subs = append(subs, c.Name())
			}
		}
		return usageError{fmt.Errorf("%s; the commands are %s", what, strings.Join(subs, ", "))}
	}
	if cmd.HasParent() {
		return usageError{fmt.Errorf("%s takes %s; given %s", name, takes, arg[:k])}
	}
	return err
}

// usageError is an argument error of agentos's own: how the command is
// called follows it, as it follows cobra's.
type usageError struct{ error }

// isUsageError recognises agentos's argument errors and cobra's, which it
// does not type.
func isUsageError(err error) bool {
	if errors.As(err, new(usageError)) {
		return true
	}
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "accepts ", "requires at least", "requires at most", "invalid argument"} {
		if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
