package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/installer"
)

// runInstallWizard asks a terminal user for the options left out, shows the
// plan with short diffs, installs once they confirm (with progress), and
// ends with the summary and next steps. Accessible mode
// (numbered questions, one per line) is used for dumb terminals and when
// ACCESSIBLE is set, as huh's users expect.
func runInstallWizard(cmd *cobra.Command, s *streams, opts installer.Options) error {
	accessible := os.Getenv("TERM") == "dumb" || os.Getenv("ACCESSIBLE") != ""
	_, err := installer.RunWizard(cmd.Context(), opts, installer.WizardIO{In: s.In, Out: s.RawOut, Accessible: accessible})
	if errors.Is(err, installer.ErrAborted) {
		fmt.Fprintln(s.Out, err.Error())
		return silentExit(exitFailure)
	}
	return err
}
