package installer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// RunWizard is `agentos install` in a terminal: it asks what opts leaves
// open, shows the plan with short diffs, asks to go ahead, installs while
// showing progress, and ends with a summary and the next steps. In
// accessible mode every screen is a plain prompt or line of text; otherwise
// one bubbletea program draws the huh forms, the plan, a progress bar and
// the summary.
func RunWizard(ctx context.Context, opts Options, wio WizardIO) (*Report, error) {
	if wio.Accessible {
		return runAccessible(ctx, opts, wio)
	}
	m, err := newWizardModel(ctx, opts)
	if err != nil {
		return nil, err
	}
	final, err := tea.NewProgram(m, tea.WithInput(wio.In), tea.WithOutput(wio.Out), tea.WithContext(ctx)).Run()
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	wm := final.(*wizardModel)
	return wm.report, wm.err
}

func runAccessible(ctx context.Context, opts Options, wio WizardIO) (*Report, error) {
	opts, err := Wizard(ctx, opts, wio)
	if err != nil {
		return nil, err
	}
	opts.Yes = true
	opts.Progress = func(p Progress) {
		if p.Done == 1 {
			fmt.Fprintf(wio.Out, "Writing %d files and folders.\n", p.Total)
		}
		if p.Step.Kind != StepFolder && p.Step.Kind != StepStandard {
			fmt.Fprintf(wio.Out, "  %d of %d: %s %s\n", p.Done, p.Total, p.Step.Action, p.Step.Path)
		}
	}
	report, err := Install(ctx, opts)
	if err != nil {
		return nil, err
	}
	report.Print(wio.Out)
	return report, nil
}

type wizardPhase int

const (
	phaseAsk wizardPhase = iota
	phaseConfirm
	phaseApply
	phaseDone
)

// wizardModel is the whole install wizard as one bubbletea model: each page
// of questions is a huh form, shown one after the other, then the plan and
// its confirmation, then a progress bar while Install runs, then the summary.
type wizardModel struct {
	ctx      context.Context
	q        *questions
	page     int   // the next page of q.pages to show
	shown    []int // the pages shown so far, in order: Esc goes back through them
	form     *huh.Form
	phase    wizardPhase
	opts     Options
	plan     string
	ok       bool
	events   chan tea.Msg // from the install goroutine: progressMsg, then one doneMsg
	cancel   context.CancelFunc
	progress Progress
	report   *Report
	err      error
	width    int
}

type progressMsg Progress

type doneMsg struct {
	report *Report
	err    error
}

func newWizardModel(ctx context.Context, opts Options) (*wizardModel, error) {
	q, err := newQuestions(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &wizardModel{ctx: ctx, q: q, ok: true, width: 80}, nil
}

func (m *wizardModel) Init() tea.Cmd { return m.nextPage() }

// nextPage shows the next page that is not hidden, or, after the last one,
// the plan.
func (m *wizardModel) nextPage() tea.Cmd {
	for m.page < len(m.q.pages) {
		pg := m.q.pages[m.page]
		m.page++
		if pg.hide != nil && pg.hide() {
			continue
		}
		m.shown = append(m.shown, m.page-1)
		return m.show(huh.NewForm(huh.NewGroup(pg.fields()...)))
	}
	return m.showPlan()
}

// back shows the page before the one on screen (from the plan: the last
// page), keeping the answers given; false when there is none.
func (m *wizardModel) back() (tea.Cmd, bool) {
	keep := len(m.shown) - 1 // on a page: the page itself goes
	if m.phase == phaseConfirm {
		keep = len(m.shown)
	}
	if keep < 1 {
		return nil, false
	}
	m.page = m.shown[keep-1]
	m.shown = m.shown[:keep-1]
	m.phase = phaseAsk
	return m.nextPage(), true
}

func (m *wizardModel) show(form *huh.Form) tea.Cmd {
	m.form = form.WithKeyMap(wizardKeys()).WithWidth(m.width).WithShowHelp(true)
	return m.form.Init()
}

// showPlan plans the install with the answers and asks to go ahead; with
// nothing to change it installs at once, which reports "up to date".
func (m *wizardModel) showPlan() tea.Cmd {
	if m.q.declined() {
		return m.fail(ErrAborted)
	}
	m.opts = m.q.options()
	preview, err := Preview(m.ctx, m.opts)
	if err != nil {
		return m.fail(err)
	}
	if !preview.Changed {
		return m.apply()
	}
	var b strings.Builder
	PrintPlan(&b, preview)
	m.plan = b.String()
	m.phase = phaseConfirm
	return m.show(huh.NewForm(huh.NewGroup(huh.NewConfirm().Title("Write these changes?").Affirmative("Yes").Negative("No").Value(&m.ok))))
}

// apply runs Install in a goroutine that reports progress through m.events
// and ends with one doneMsg; the goroutine exits when Install returns, and
// never blocks on a program that has gone (ctx).
func (m *wizardModel) apply() tea.Cmd {
	m.phase = phaseApply
	m.form = nil
	m.events = make(chan tea.Msg, 16)
	installCtx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	opts := m.opts
	opts.Yes = true
	send := func(msg tea.Msg) {
		select {
		case m.events <- msg:
		case <-m.ctx.Done():
		}
	}
	opts.Progress = func(p Progress) { send(progressMsg(p)) }
	go func() {
		defer cancel()
		report, err := Install(installCtx, opts)
		send(doneMsg{report: report, err: err})
	}()
	return m.wait()
}

func (m *wizardModel) wait() tea.Cmd {
	events, ctx := m.events, m.ctx
	return func() tea.Msg {
		select {
		case msg := <-events:
			return msg
		case <-ctx.Done():
			return doneMsg{err: ctx.Err()}
		}
	}
}

func (m *wizardModel) fail(err error) tea.Cmd {
	m.err, m.phase = err, phaseDone
	return tea.Quit
}

func (m *wizardModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = min(msg.Width, 100)
	case tea.KeyMsg:
		if msg.Type == tea.KeyCtrlC {
			if m.phase == phaseApply {
				m.cancel() // Install puts back what it wrote, then reports
				return m, nil
			}
			return m, m.fail(ErrAborted)
		}
		if msg.Type == tea.KeyEsc && (m.phase == phaseAsk || m.phase == phaseConfirm) {
			if cmd, ok := m.back(); ok {
				return m, cmd
			}
			return m, nil // the first page: nowhere to go back to
		}
	case progressMsg:
		m.progress = Progress(msg)
		return m, m.wait()
	case doneMsg:
		if errors.Is(msg.err, context.Canceled) {
			// Ctrl-C from outside the program (the signal): Install put
			// back whatever it had written.
			msg.err = ErrAborted
		}
		m.report, m.err, m.phase = msg.report, msg.err, phaseDone
		return m, tea.Quit
	}
	if m.form == nil {
		return m, nil
	}
	f, cmd := m.form.Update(msg)
	m.form = f.(*huh.Form)
	switch m.form.State {
	case huh.StateAborted:
		return m, m.fail(ErrAborted)
	case huh.StateCompleted:
		if m.phase == phaseAsk {
			return m, m.nextPage()
		}
		if !m.ok {
			return m, m.fail(ErrAborted)
		}
		return m, m.apply()
	}
	return m, cmd
}

func (m *wizardModel) View() string {
	var b strings.Builder
	switch m.phase {
	case phaseAsk:
		b.WriteString("agentos install\n\n")
		b.WriteString(m.form.View())
		b.WriteString("\n\nesc: back a step · ctrl+c: cancel (nothing is written)")
	case phaseConfirm:
		b.WriteString(wrapText(m.plan, m.width) + "\n")
		b.WriteString(m.form.View())
		b.WriteString("\n\nesc: back to the questions · ctrl+c: cancel (nothing is written)")
	case phaseApply:
		writeProgress(&b, m.progress, m.width)
	case phaseDone:
		if m.report != nil && m.err == nil {
			// The finished bar stays above the summary: a quick install
			// is over before the renderer draws a frame of it.
			if m.progress.Total > 0 {
				writeProgress(&b, Progress{Done: m.progress.Done, Total: m.progress.Total}, m.width)
				b.WriteString("\n")
			}
			var summary strings.Builder
			m.report.Print(&summary)
			b.WriteString(wrapText(summary.String(), m.width))
		}
	}
	return b.String()
}

// wrapText wraps each line of s that is wider than width at its last space
// that fits, and indents the continuation two columns past the line's own
// indentation: a terminal program's renderer cuts a longer line, and the
// command to run is often at its end. A word longer than a line is broken
// where it must be.
func wrapText(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		body := strings.TrimLeft(line, " ")
		cont := strings.Repeat(" ", len(line)-len(body)+2)
		if width-len(cont) < 20 {
			continue // too narrow to wrap sensibly
		}
		var b strings.Builder
		rest := []rune(line)
		for len(rest) > width {
			cut := width
			if sp := strings.LastIndexByte(string(rest[len(cont):width+1]), ' '); sp >= 0 {
				cut = len([]rune(string(rest[len(cont) : width+1])[:sp])) + len(cont)
			}
			b.WriteString(strings.TrimRight(string(rest[:cut]), " ") + "\n")
			rest = []rune(cont + strings.TrimLeft(string(rest[cut:]), " "))
		}
		b.WriteString(string(rest))
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// writeProgress draws a bar, the count and the last step written.
func writeProgress(w io.Writer, p Progress, width int) {
	bar := max(width-20, 10)
	filled := 0
	if p.Total > 0 {
		filled = bar * p.Done / p.Total
	}
	fmt.Fprintf(w, "Installing  %s%s  %d/%d\n", strings.Repeat("█", filled), strings.Repeat("░", bar-filled), p.Done, p.Total)
	if p.Step.Path != "" {
		fmt.Fprintf(w, "  %s %s\n", p.Step.Action, p.Step.Path)
	}
}
