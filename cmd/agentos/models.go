package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/models"
)

func newModelsCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "Download and list static embedding models for code search",
		Long: `Search works offline with its built-in embedder. A model2vec static model (for instance
minishlab/potion-base-8M, about 30 MB) can improve it: pull it once on a machine with internet,
then set search.embedder to provider model2vec with model OWNER/NAME.

Models live in the models folder: $` + models.EnvDir + `, or agentos/models in the user's cache
directory (~/.cache/agentos/models on Linux), one directory per model, OWNER/NAME.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newModelsPullCmd(s), newModelsListCmd(s))
	return cmd
}

func newModelsPullCmd(s *streams) *cobra.Command {
	var opt models.Options
	var sums []string
	cmd := &cobra.Command{
		Use:   "pull OWNER/NAME",
		Short: "Download a model2vec model from the Hugging Face hub",
		Long: `Pull downloads model.safetensors, tokenizer.json and config.json of a model2vec model from
the Hugging Face hub into the models folder, checks each file's SHA-256 against the one the hub
announces (and against --sha256 when given), checks that the model loads, and only then moves it
into place: a failed or interrupted pull leaves nothing behind and keeps any earlier copy.

$` + models.EnvEndpoint + ` sets another hub (a mirror); $` + models.EnvToken + ` is sent as a token for private models.`,
		Example: `  agentos models pull minishlab/potion-base-8M
  agentos models pull minishlab/potion-base-8M --dir .agentos/.cache/models
  agentos models pull minishlab/potion-base-8M --sha256 model.safetensors=<64 hex digits>`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := models.CheckName(name); err != nil {
				return withCode(exitUsage, err)
			}
			opt.SHA256 = map[string]string{}
			for _, kv := range sums {
				file, sum, ok := strings.Cut(kv, "=")
				if !ok {
					return withCode(exitUsage, fmt.Errorf("--sha256 %q: expected FILE=HEX", kv))
				}
				opt.SHA256[file] = sum
			}
			if opt.Dir == "" {
				dir, err := models.Dir()
				if err != nil {
					return err
				}
				opt.Dir = dir
			}
			errFile, _ := s.RawErr.(*os.File) // progress goes to stderr; a bar only on a terminal
			opt.Progress = models.ProgressPrinter(s.RawErr, isTerminal(errFile) && os.Getenv("TERM") != "dumb")
			fmt.Fprintf(s.Err, "Pulling %s into %s\n", name, opt.Dir)
			res, err := models.Pull(cmd.Context(), name, opt)
			if err != nil {
				return err
			}
			if res.Already {
				fmt.Fprintf(s.Out, "%s is already in %s (%d dimensions); --force downloads it again.\n", name, res.Dir, res.Info.Dim)
				return nil
			}
			var size int64
			for _, f := range res.Files {
				size += f.Size
			}
			fmt.Fprintf(s.Out, "Pulled %s into %s: %d dimensions, %d tokens, %s.\n", name, res.Dir, res.Info.Dim, res.Info.Rows, models.Size(size))
			fmt.Fprintf(s.Out, "To search with it, set search.embedder to provider model2vec with model %s.\n", name)
			return nil
		},
	}
	cmd.Flags().StringVar(&opt.Dir, "dir", "", "models folder; the model goes to DIR/OWNER/NAME (default: $"+models.EnvDir+" or the user cache)")
	cmd.Flags().StringVar(&opt.Endpoint, "endpoint", "", "hub URL (default: $"+models.EnvEndpoint+" or "+models.DefaultEndpoint+")")
	cmd.Flags().StringVar(&opt.Revision, "revision", "main", "branch, tag or commit of the model's repository")
	cmd.Flags().StringArrayVar(&sums, "sha256", nil, "expected digest of a file, FILE=HEX (repeatable)")
	cmd.Flags().BoolVar(&opt.Force, "force", false, "download again even if the model is already there")
	return cmd
}

func newModelsListCmd(s *streams) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the downloaded models",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				d, err := models.Dir()
				if err != nil {
					return err
				}
				dir = d
			}
			list, err := models.List(dir)
			if err != nil {
				return err
			}
			if asJSON {
				if list == nil {
					list = []models.Model{}
				}
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			if len(list) == 0 {
				fmt.Fprintf(s.Out, "No models in %s. Pull one with: agentos models pull minishlab/potion-base-8M\n", dir)
				return nil
			}
			tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDIM\tSIZE\tPATH")
			for _, m := range list {
				dim := fmt.Sprint(m.Info.Dim)
				if m.Err != "" {
					dim = "unusable: " + m.Err
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Name, dim, models.Size(m.Size), m.Dir)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "models folder (default: $"+models.EnvDir+" or the user cache)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
