package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/installer"
)

// runInstallWizard asks a terminal user for the options left out, shows the
// plan with short diffs, and installs once they confirm. Accessible mode
// (numbered questions, one per line) is used for dumb terminals and when
// ACCESSIBLE is set, as huh's users expect.
func runInstallWizard(cmd *cobra.Command, s *streams, opts installer.Options) error {
	accessible := os.Getenv("TERM") == "dumb" || os.Getenv("ACCESSIBLE") != ""
	opts, err := installer.Wizard(cmd.Context(), opts, installer.WizardIO{In: s.In, Out: s.Out, Accessible: accessible})
	if errors.Is(err, installer.ErrAborted) {
		fmt.Fprintln(s.Out, err.Error())
		return silentExit(exitFailure)
	}
	if err != nil {
		return err
	}
	report, err := installer.Install(cmd.Context(), opts)
	if err != nil {
		return err
	}
	report.Print(s.Out)
	return nil
}
