package installer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/huh"

	"github.com/agentos-dev/agentos/agentconfig"
)

// WizardIO is where the wizard talks to its user. Accessible mode asks
// one plain numbered question at a time (for screen readers and dumb
// terminals); otherwise the huh forms draw in the terminal.
type WizardIO struct {
	In         io.Reader
	Out        io.Writer
	Accessible bool
}

// ErrAborted is returned when the user cancels the wizard or declines the plan.
var ErrAborted = errors.New("install cancelled; nothing was written")

// extensions are agents that run inside an IDE, where the IDE matters.
var extensions = map[string]bool{"cline": true, "roo": true, "kilo": true, "continue": true}

// questions are what the wizard asks, bound to its answers. The same
// questions run as one huh form in a terminal and one plain prompt at a
// time in accessible mode.
type questions struct {
	opts Options
	// accessible: plain prompts, which keep a default on an empty answer
	// but do not show it, so the titles say it.
	accessible bool
	primary    string // the primary's client id as answered (or as given)
	ide        string
	picked     []string
	paths      string
	langs      string
	cover      string
	pin        bool
	// takeovers are the single user-level entries (Cline's) the install
	// would take from other projects, and agree the answers to whether to
	// take each one.
	takeovers []agentconfig.Takeover
	agree     []bool
	pages     []page
}

// page is one screen of questions, shown unless hide says otherwise. Its
// fields are made when the page is shown, so that they can depend on the
// answers before it (accessible prompts do not re-evaluate options).
type page struct {
	fields func() []huh.Field
	hide   func() bool
}

// newQuestions decides what to ask: only what opts leaves open.
func newQuestions(ctx context.Context, opts Options) (*questions, error) {
	q := &questions{opts: opts, pin: !opts.NoPin}
	askAgent := len(opts.Agents) == 0 && opts.For == ""
	if askAgent {
		q.primary = DefaultAgent
		q.pages = append(q.pages, page{fields: func() []huh.Field {
			f := primaryField(&q.primary)
			if q.accessible {
				f.Title("Which agent launches the agentos server (the primary)? Enter keeps " + q.primaryName() + ".")
			}
			return []huh.Field{f}
		}})
	} else {
		agents, err := ResolveAgents(opts)
		if err != nil {
			return nil, err
		}
		q.primary = agents.Primary().ID
		if agents.IDE != nil {
			q.ide = agents.IDE.ID
		}
	}
	if opts.IDE == "" && q.ide == "" {
		q.ide = "vscode"
		q.pages = append(q.pages, page{
			fields: func() []huh.Field {
				return []huh.Field{huh.NewSelect[string]().
					Title(q.primaryName()+" runs inside which IDE?").
					Options(huh.NewOption("VS Code", "vscode"), huh.NewOption("Cursor", "cursor")).Value(&q.ide)}
			},
			hide: func() bool { return !extensions[q.primary] },
		})
	}
	if len(opts.Secondary) == 0 {
		q.pages = append(q.pages, page{fields: func() []huh.Field { return []huh.Field{secondaryField(&q.primary, &q.picked)} }})
	}
	p, err := installRoot(opts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(p.Config()); errors.Is(err, fs.ErrNotExist) {
		d, err := Detect(ctx, p.Root)
		if err != nil {
			return nil, err
		}
		q.paths, q.langs, q.cover = ".", strings.Join(d.Languages, ", "), "80" // the whole project, as install writes it
		q.pages = append(q.pages, page{fields: func() []huh.Field {
			return []huh.Field{
				huh.NewInput().Title(q.withDefault("Source folders to index (comma-separated)", q.paths)).Value(&q.paths).Validate(existingFolders(p.Root)),
				huh.NewInput().Title(q.withDefault("Languages (comma-separated; none for none)", q.langs)).Value(&q.langs).Validate(knownLanguages),
				huh.NewInput().Title(q.withDefault("Coverage threshold for implementation gates, in percent", q.cover)).Value(&q.cover).Validate(validThreshold),
			}
		}})
	}
	// A `go run` build is deleted by Go: it is pinned without asking (the
	// plan's binary step says why).
	if src, err := sourceBinary(opts); !opts.NoPin && (err != nil || !agentconfig.TransientBinary(src)) {
		q.pages = append(q.pages, page{fields: func() []huh.Field {
			return []huh.Field{huh.NewConfirm().
				Title("Pin a copy of this agentos binary in .agentos/bin/?").
				Description("Recommended: the project keeps the version it was installed with. No: the agents run\n" + binaryForPrompt(opts) + " where it is.").
				Affirmative("Yes").Negative("No").Value(&q.pin)}
		}})
	}
	// Last, since it depends on every answer before it: a client that keeps
	// one entry for all projects (Cline) and holds another project's.
	if !opts.Replace {
		q.pages = append(q.pages, page{
			fields: func() []huh.Field {
				return takeoverFields(q.takeovers, q.agree, "No cancels the install; nothing is written.")
			},
			hide: func() bool {
				// An error here is the plan's too, which reports it next.
				q.agree = nil
				q.takeovers, _ = Takeovers(q.options())
				q.agree = make([]bool, len(q.takeovers))
				return len(q.takeovers) == 0
			},
		})
	}
	return q, nil
}

// takeoverFields ask, one yes/no each, whether to point a client's single
// entry at this project. No is the default: the other project keeps it.
// The whole question is in the title, which accessible prompts show alone.
func takeoverFields(takeovers []agentconfig.Takeover, agree []bool, no string) []huh.Field {
	var out []huh.Field
	for i, k := range takeovers {
		out = append(out, huh.NewConfirm().Title(k.Question()).
			Description(k.Target.Client.Name+" keeps one agentos entry for all projects, in "+k.Target.Path+".\n"+no).
			Affirmative("Yes").Negative("No").Value(&agree[i]))
	}
	return out
}

// declined reports whether the person said no to taking an entry.
func (q *questions) declined() bool {
	for _, ok := range q.agree {
		if !ok {
			return true
		}
	}
	return false
}

// withDefault is a question's title, with the detected answer an empty
// line keeps where the prompt does not show it (accessible mode).
func (q *questions) withDefault(title, value string) string {
	if !q.accessible {
		return title
	}
	if value == "" {
		value = "none"
	}
	return title + " [detected: " + value + "; enter keeps it]"
}

func (q *questions) primaryName() string {
	if c, err := agentconfig.Lookup(q.primary); err == nil {
		return c.Name
	}
	return q.primary
}

// existingFolders checks the wizard's source folders: each must be a
// folder inside the project (empty: the default).
func existingFolders(root string) func(string) error {
	return func(s string) error {
		for _, f := range splitList(s) {
			rel := filepath.FromSlash(f)
			if !filepath.IsLocal(rel) && rel != "." {
				return fmt.Errorf("%s is not a folder inside the project", f)
			}
			if fi, err := os.Stat(filepath.Join(root, rel)); err != nil || !fi.IsDir() {
				return fmt.Errorf("%s is not a folder of the project", f)
			}
		}
		return nil
	}
}

// knownLanguages checks the wizard's languages against those agentos
// detects and indexes ("none" for none).
func knownLanguages(s string) error {
	langs := splitList(s)
	if len(langs) == 1 && strings.EqualFold(langs[0], "none") {
		return nil
	}
	known := map[string]bool{}
	for _, l := range languageByExt {
		known[l] = true
	}
	for _, l := range langs {
		if !known[strings.ToLower(l)] {
			names := make([]string, 0, len(known))
			for n := range known {
				names = append(names, n)
			}
			slices.Sort(names)
			return fmt.Errorf("agentos knows no language %q; it knows %s (or none)", l, strings.Join(names, ", "))
		}
	}
	return nil
}

func validThreshold(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil // the default
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil || v < 0 || v > 100 {
		return errors.New("enter a number from 0 to 100")
	}
	return nil
}

func binaryForPrompt(opts Options) string {
	if src, err := sourceBinary(opts); err == nil {
		return src
	}
	return "the agentos you ran"
}

// options are opts with the answers filled in.
func (q *questions) options() Options {
	opts := q.opts
	if len(opts.Agents) == 0 && opts.For == "" {
		opts.Agents = []string{q.primary}
	}
	if opts.IDE == "" && extensions[q.primary] && q.ide != "" {
		if agents, err := ResolveAgents(opts); err != nil || agents.IDE == nil {
			opts.IDE = q.ide
		}
	}
	if len(opts.Secondary) == 0 {
		opts.Secondary = q.picked
	}
	if q.cover != "" || q.paths != "" || q.langs != "" {
		opts.SourcePaths = splitList(q.paths) // empty: what was detected
		opts.Languages = splitList(q.langs)
		if len(opts.Languages) == 1 && strings.EqualFold(opts.Languages[0], "none") {
			opts.Languages = nil
		}
		if opts.Languages == nil {
			opts.Languages = []string{}
		}
		opts.CoverageThreshold, _ = strconv.ParseFloat(strings.TrimSpace(q.cover), 64) // 0: the default
	}
	opts.NoPin = !q.pin
	if len(q.agree) > 0 && !q.declined() {
		opts.Replace = true
	}
	return opts
}

// Wizard asks, one prompt at a time, for what opts leaves open (the primary
// agent, the IDE it runs in, secondary agents, the detected source folders
// and languages, the coverage threshold, whether to pin the binary, and
// whether to take a client's one entry for all projects from another
// project), shows the plan with a short diff of every file it would change,
// and asks to go ahead. It returns the options to install with. RunWizard uses it in
// accessible mode; in a terminal it draws the same questions as one form.
func Wizard(ctx context.Context, opts Options, wio WizardIO) (Options, error) {
	in := &lineReader{r: bufio.NewReader(wio.In)}
	run := func(fields ...huh.Field) error {
		form := huh.NewForm(huh.NewGroup(fields...)).WithKeyMap(wizardKeys()).WithInput(in).WithOutput(wio.Out).WithAccessible(wio.Accessible).WithShowHelp(!wio.Accessible)
		if err := form.RunWithContext(ctx); err != nil {
			// Ctrl-C (the form's own, or the signal that cancels ctx).
			if errors.Is(err, huh.ErrUserAborted) || errors.Is(err, context.Canceled) {
				return ErrAborted
			}
			return err
		}
		return nil
	}
	q, err := newQuestions(ctx, opts)
	if err != nil {
		return opts, err
	}
	q.accessible = wio.Accessible
	for _, pg := range q.pages {
		if pg.hide != nil && pg.hide() {
			continue
		}
		if err := run(pg.fields()...); err != nil {
			return opts, err
		}
	}
	if q.declined() {
		return opts, ErrAborted
	}
	opts = q.options()
	preview, err := Preview(ctx, opts)
	if err != nil {
		return opts, err
	}
	if !preview.Changed {
		return opts, nil // nothing to confirm: Install reports "up to date"
	}
	PrintPlan(wio.Out, preview)
	ok := true
	if err := run(huh.NewConfirm().Title("Write these changes?").Affirmative("Yes").Negative("No").Value(&ok)); err != nil {
		return opts, err
	}
	if !ok {
		return opts, ErrAborted
	}
	opts.Yes = true
	return opts, nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// primaryField asks for the primary agent.
func primaryField(value *string) *huh.Select[string] {
	var options []huh.Option[string]
	for _, c := range agentconfig.All() {
		options = append(options, huh.NewOption(c.Name, c.ID))
	}
	return huh.NewSelect[string]().Title("Which agent launches the agentos server (the primary)?").Options(options...).Value(value)
}

// secondaryField asks for the secondary agents: every client but the
// primary as answered so far.
func secondaryField(primary *string, value *[]string) *huh.MultiSelect[string] {
	var options []huh.Option[string]
	for _, c := range agentconfig.All() {
		if c.ID != *primary {
			options = append(options, huh.NewOption(c.Name, c.ID))
		}
	}
	return huh.NewMultiSelect[string]().Title("Other agents that share the server over HTTP (secondary; none is fine)").
		Description("space toggles the agent under the cursor; / filters by name: type, then enter to keep the\nfiltered list (space toggles again), esc to clear it; enter again confirms.").
		Options(options...).Value(value)
}

// wizardKeys are huh's keys with the agent list's made plain: space
// toggles (x typed into the filter box typed an x although the help said
// "x toggle"), and enter or esc ends filtering, as the help then says.
func wizardKeys() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	km.MultiSelect.Toggle = key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "toggle"))
	km.MultiSelect.SetFilter = key.NewBinding(key.WithKeys("enter", "esc"), key.WithHelp("enter", "keep filter"), key.WithDisabled())
	return km
}

// PrintPlan lists every file the install would create or change, with a
// short diff of each changed config or rules file.
func PrintPlan(w io.Writer, r *Report) {
	fmt.Fprintf(w, "Plan for %s:\n", r.Root)
	counts := map[Action]int{}
	for _, s := range r.Steps {
		if s.Action == Unchanged {
			continue
		}
		if s.Kind == StepFolder || s.Kind == StepStandard {
			counts[s.Action]++
			continue
		}
		fmt.Fprintf(w, "  %-8s %s\n", s.Action, s.Path)
		if s.Backup != "" {
			fmt.Fprintf(w, "           original saved to %s\n", s.Backup)
		}
		if s.Action == Updated && (s.Before != nil || s.After != nil) {
			for _, line := range ShortDiff(string(s.Before), string(s.After), 12) {
				fmt.Fprintf(w, "           %s\n", line)
			}
		}
		if s.Detail != "" {
			fmt.Fprintf(w, "           %s\n", s.Detail)
		}
	}
	if n := counts[Created]; n > 0 {
		fmt.Fprintf(w, "  %-8s %d folders, standards and workflows under .agentos/\n", Created, n)
	}
}

// ShortDiff returns the changed lines of before → after, "-" and "+"
// prefixed, at most max of them (and a line saying how many more).
func ShortDiff(before, after string, max int) []string {
	a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
	// Trim the common head and tail, then diff the middle by LCS when small.
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	var out []string
	if len(a)*len(b) <= 250000 {
		lcs := make([][]int, len(a)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(b)+1)
		}
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(b) - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max2(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(a) || j < len(b) {
			switch {
			case i < len(a) && j < len(b) && a[i] == b[j]:
				i, j = i+1, j+1
			case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
				out = append(out, "- "+a[i])
				i++
			default:
				out = append(out, "+ "+b[j])
				j++
			}
		}
	} else {
		for _, l := range a {
			out = append(out, "- "+l)
		}
		for _, l := range b {
			out = append(out, "+ "+l)
		}
	}
	if len(out) > max {
		more := len(out) - max
		out = append(out[:max], fmt.Sprintf("… %d more changed lines", more))
	}
	return out
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// lineReader hands out its input at most one line per Read. huh's
// accessible prompts make a new bufio.Scanner for every question, which
// would otherwise swallow the answers to the questions after it.
type lineReader struct {
	r *bufio.Reader
}

func (l *lineReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		b, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		p[n] = b
		n++
		if b == '\n' {
			break
		}
	}
	return n, nil
}

// ConfirmTakeover asks whether `agentos connect` may point a client's
// single entry, which serves another project, at this one.
func ConfirmTakeover(ctx context.Context, wio WizardIO, k agentconfig.Takeover) (bool, error) {
	agree := []bool{false}
	form := huh.NewForm(huh.NewGroup(takeoverFields([]agentconfig.Takeover{k}, agree, "No leaves it as it is.")...)).
		WithInput(&lineReader{r: bufio.NewReader(wio.In)}).WithOutput(wio.Out).WithAccessible(wio.Accessible)
	if err := form.RunWithContext(ctx); err != nil {
		if errors.Is(err, huh.ErrUserAborted) {
			return false, ErrAborted
		}
		return false, err
	}
	return agree[0], nil
}

// PickAgent asks which agent to connect as a secondary: the menu of
// `agentos connect` when it runs in a terminal without --agent.
func PickAgent(ctx context.Context, wio WizardIO) (string, error) {
	var value string
	var options []huh.Option[string]
	for _, c := range agentconfig.All() {
		label := c.Name
		if !c.CanHTTP() {
			label += " (stdio bridge)"
		}
		options = append(options, huh.NewOption(label, c.ID))
	}
	field := huh.NewSelect[string]().Title("Which agent should share this project's server?").Options(options...).Value(&value)
	form := huh.NewForm(huh.NewGroup(field)).WithInput(&lineReader{r: bufio.NewReader(wio.In)}).WithOutput(wio.Out).WithAccessible(wio.Accessible)
	if err := form.RunWithContext(ctx); err != nil {
		if errors.Is(err, huh.ErrUserAborted) {
			return "", ErrAborted
		}
		return "", err
	}
	return value, nil
}
