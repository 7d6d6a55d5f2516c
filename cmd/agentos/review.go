package main

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/server"
	"github.com/agentos-dev/agentos/server/review"
)

func newReviewCmd(s *streams) *cobra.Command {
	var dir string
	var noOpen bool
	cmd := &cobra.Command{
		Use:   "review",
		Short: "Open the review page: sessions, specs, gate evidence and agents; approve from the browser",
		Long: `Review asks this project's running agentos server for a one-time link to its review
page, prints it and opens it in your default browser (unless --no-open). The page shows the
workflow sessions, each spec with what changed since its last approval, the evidence the
gates found, the connected agents, the search indexes and the standards; there you can
approve a spec, request changes, confirm changed rules, or accept or reset a session
changed outside agentos.

The link works only while this command runs (at most 12 hours): press Ctrl-C to close it.
No agent can open it: the server mints it in memory for this command alone, which proves
itself with the server's auth token (.agentos/.cache/auth_token, which agentos's tools
never read).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, cfg, _, err := openProject(dir)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			link, err := server.OpenReview(ctx, p, cfg)
			var none *server.NoServerError
			if errors.As(err, &none) {
				return withCode(exitFailure, err)
			}
			if err != nil {
				return err
			}
			defer link.Close()
			fmt.Fprintf(s.Out, "Review page for %s:\n  %s\n", p.Root, link.URL)
			fmt.Fprintf(s.Out, "The link works until you press Ctrl-C here (at most until %s).\n", link.ExpiresAt.Local().Format("2006-01-02 15:04"))
			if link.OtherLinks > 0 {
				fmt.Fprintf(s.Err, "Note: %d other review link(s) are open on this server. If you did not open them with `agentos review`, a program on this machine reads the server's auth token (.agentos/.cache/auth_token): find it, then delete that file and restart the server.\n", link.OtherLinks)
			}
			if !noOpen {
				if err := openBrowser(link.URL); err != nil {
					fmt.Fprintf(s.Err, "Could not open a browser (%v); open the link above yourself.\n", err)
				}
			}
			ended := link.Wait()
			switch {
			case ctx.Err() != nil:
				fmt.Fprintln(s.Out, "Review link closed.")
				return nil
			case ended == review.GrantExpired:
				return errors.New("the review link expired after 12 hours; run `agentos review` again for a new one")
			}
			return errors.New("the agentos server stopped, so the review link is closed; start it again, then run `agentos review`")
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the link without opening a browser")
	return cmd
}

// openBrowser opens url in the person's default browser.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		return err
	}
	// The opener hands the URL to the browser and exits; reap it.
	go c.Wait()
	return nil
}
