package installer

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/exp/teatest"
)

// teaDeadline bounds each wait for the terminal UI. It is a deadline for a
// hung program, not a measure of speed: on a loaded machine (CI beside
// other work) drawing a form has taken over 5 s.
const teaDeadline = 2 * time.Minute

// runForm drives one of the wizard's forms through teatest with keys.
func runForm(t *testing.T, field huh.Field, keys ...tea.KeyMsg) string {
	t.Helper()
	form := huh.NewForm(huh.NewGroup(field))
	form.SubmitCmd = tea.Quit
	form.CancelCmd = tea.Quit
	tm := teatest.NewTestModel(t, form, teatest.WithInitialTermSize(100, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("?")) }, teatest.WithDuration(teaDeadline))
	for _, k := range keys {
		tm.Send(k)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(teaDeadline))
	if f, ok := final.(*huh.Form); !ok || f.State != huh.StateCompleted {
		t.Fatalf("form did not complete: %T", final)
	}
	out, _ := io.ReadAll(tm.FinalOutput(t))
	return string(out)
}

func TestWizardFormsInTheTerminal(t *testing.T) {
	t.Parallel()
	down := tea.KeyMsg{Type: tea.KeyDown}
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	var agent string
	screen := runForm(t, primaryField(&agent), down, down, enter) // Claude Code, Claude Desktop, Cursor
	if agent != "cursor" {
		t.Errorf("picked %q", agent)
	}
	if !strings.Contains(screen, "Which agent launches") {
		t.Errorf("screen:\n%s", screen)
	}
	var picked []string
	space := tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	primary := "claude-code"
	runForm(t, secondaryField(&primary, &picked), space, down, space, enter) // Claude Desktop, Cursor
	if strings.Join(picked, ",") != "claude-desktop,cursor" {
		t.Errorf("picked %v", picked)
	}
}

// The whole wizard in a terminal, driven through teatest: choose Cursor as
// the primary and Claude Code as a secondary, keep the detected settings,
// pin the binary, see the plan, confirm, watch the progress, read the
// summary; the files are written.
func TestWholeWizardInTheTerminal(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n", ".gitignore": "build/\n"})
	env := homeFor(root)
	m, err := newWizardModel(context.Background(), Options{Dir: root, BinaryPath: binary, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 60))
	down := tea.KeyMsg{Type: tea.KeyDown}
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	space := tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	var seen strings.Builder // everything drawn, for the checks at the end
	wait := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			if bytes.Contains(b, []byte(what)) {
				seen.Write(b)
				return true
			}
			return false
		}, teatest.WithDuration(teaDeadline), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("Which agent launches")
	tm.Send(down)
	tm.Send(down)
	tm.Send(enter) // Claude Code, Claude Desktop, Cursor
	wait("Other agents that share")
	tm.Send(space) // Claude Code, the first of the others
	tm.Send(enter)
	wait("Source folders to index")
	tm.Send(enter)
	tm.Send(enter)
	tm.Send(enter) // detected folders, languages, the default threshold
	wait("Pin a copy")
	tm.Send(enter) // yes
	wait("Write these changes?")
	if _, err := os.Stat(filepath.Join(root, ".agentos")); !os.IsNotExist(err) {
		t.Fatal("written before the plan was confirmed")
	}
	tm.Send(enter) // yes
	final := tm.FinalModel(t, teatest.WithFinalTimeout(teaDeadline)).(*wizardModel)
	if final.err != nil || final.report == nil || !final.report.Changed {
		t.Fatalf("wizard ended with %v, %+v", final.err, final.report)
	}
	out, _ := io.ReadAll(tm.FinalOutput(t))
	screen := seen.String() + string(out)
	for _, want := range []string{"Plan for " + root, "created  .cursor/mcp.json", "updated  .gitignore", "+ # agentos:begin", "Installing", "Restart Cursor", "get_server_info"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if final.progress.Total == 0 || final.progress.Done != final.progress.Total {
		t.Errorf("progress ended at %+v", final.progress)
	}
	wantContains(t, readTestFile(t, filepath.Join(root, ".cursor", "mcp.json")), "${workspaceFolder}/.agentos/bin/agentos")
	wantContains(t, readTestFile(t, filepath.Join(env.Home, ".claude.json")), `"type": "http"`)
	wantContains(t, readTestFile(t, filepath.Join(root, ".gitignore")), "build/\n")
	if fi, err := os.Stat(filepath.Join(root, ".agentos", "bin", "agentos")); err != nil || fi.Size() != int64(len(fakeBinary)) {
		t.Errorf("binary not pinned: %v", err)
	}
}

// Declining the pin: no copy in .agentos/bin/, and the entry runs the
// binary where it is; a second run with the same answer is up to date.
func TestWizardWithoutPinAccessible(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := homeFor(root)
	var out strings.Builder
	answers := "\n\n\nn\ny\n" // threshold page (3 fields), pin: no, write: yes
	report, err := RunWizard(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{"cursor"}, Secondary: []string{"codex"}, Env: env},
		WizardIO{In: strings.NewReader(answers), Out: &out, Accessible: true})
	if err != nil || !report.Changed {
		t.Fatalf("wizard: %v\n%s", err, out.String())
	}
	wantContains(t, out.String(), "Writing ")
	wantContains(t, out.String(), "Next steps")
	if _, err := os.Stat(filepath.Join(root, ".agentos", "bin")); err != nil {
		t.Fatalf("layout folder .agentos/bin missing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "bin", "agentos")); !os.IsNotExist(err) {
		t.Errorf("binary pinned although declined: %v", err)
	}
	cursor := readTestFile(t, filepath.Join(root, ".cursor", "mcp.json"))
	wantContains(t, cursor, `"command": "`+binary+`"`)
	again, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{"cursor"}, Secondary: []string{"codex"}, Env: env, NoPin: true, Yes: true})
	if err != nil || again.Changed {
		t.Errorf("second run with --no-pin: %v changed=%v", err, again != nil && again.Changed)
	}
}

// The wizard's plan and summary wrap at the terminal's width instead of
// being cut there: every line fits, and no word is lost.
func TestWizardWrapsLongLines(t *testing.T) {
	t.Parallel()
	report := &Report{Root: "/home/someone/projects/a-project-with-a-long-name", Changed: true, Agents: []string{"Claude Code"},
		Steps: []Step{{Kind: StepAgentConfig, Path: "~/.claude.json", Action: Created, Trust: "Codex CLI reads this project's MCP config only in a folder it trusts: run `agentos trust --agent codex`."}}}
	var full strings.Builder
	report.Print(&full)
	for _, width := range []int{40, 60, 100} {
		m := &wizardModel{phase: phaseDone, report: report, width: width}
		screen := m.View()
		for _, line := range strings.Split(screen, "\n") {
			if n := len([]rune(line)); n > width {
				t.Errorf("width %d: a line of %d columns: %q", width, n, line)
			}
		}
		if got, want := strings.Join(strings.Fields(screen), ""), strings.Join(strings.Fields(full.String()), ""); got != want {
			t.Errorf("width %d: words lost or changed:\n%s", width, screen)
		}
	}
	if got := wrapText("short line\n  kept    as it is", 40); got != "short line\n  kept    as it is" {
		t.Errorf("a line that fits changed: %q", got)
	}
	if got := wrapText("  "+strings.Repeat("x", 50), 30); got != "  "+strings.Repeat("x", 28)+"\n    "+strings.Repeat("x", 22) {
		t.Errorf("a long word: %q", got)
	}
}

// The agent list's keys do what its help says: space toggles, / filters,
// and enter keeps the filtered list so that space toggles in it.
func TestAgentListKeys(t *testing.T) {
	t.Parallel()
	var picked []string
	primary := "claude-code"
	form := huh.NewForm(huh.NewGroup(secondaryField(&primary, &picked))).WithKeyMap(wizardKeys()).WithShowHelp(true)
	form.SubmitCmd = tea.Quit
	form.CancelCmd = tea.Quit
	tm := teatest.NewTestModel(t, form, teatest.WithInitialTermSize(100, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("space toggle")) }, teatest.WithDuration(5*time.Second))
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'/'}}}
	for _, r := range "codex" {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	keys = append(keys, tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}, tea.KeyMsg{Type: tea.KeyEnter})
	for _, k := range keys {
		tm.Send(k)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if f, ok := final.(*huh.Form); !ok || f.State != huh.StateCompleted {
		t.Fatalf("form did not complete: %T", final)
	}
	if strings.Join(picked, ",") != "codex" {
		t.Errorf("picked %v, want codex", picked)
	}
	out, _ := io.ReadAll(tm.FinalOutput(t))
	if strings.Contains(string(out), "x toggle") {
		t.Error("the help still offers x, which the filter box types")
	}
}

// Esc goes back a step, keeping the answers; a folder that does not exist
// is refused where it is typed (TestWizardValidators has the rules); Ctrl-C
// cancels with nothing written.
func TestWizardGoesBackAndValidates(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	m, err := newWizardModel(context.Background(), Options{Dir: root, BinaryPath: binary, Env: homeFor(root)})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 60))
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	esc := tea.KeyMsg{Type: tea.KeyEsc}
	wait := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(teaDeadline), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("Which agent launches")
	tm.Send(enter)
	wait("Other agents that share")
	tm.Send(esc) // back to the first question
	wait("Which agent launches")
	tm.Send(enter)
	wait("Other agents that share")
	tm.Send(enter)
	wait("Source folders to index")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(", nowhere")})
	tm.Send(enter)
	wait("nowhere is not a folder of the project") // and the form stays on it
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(teaDeadline)).(*wizardModel)
	if final.err != ErrAborted {
		t.Errorf("Ctrl-C ended with %v", final.err)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos")); !os.IsNotExist(err) {
		t.Error("a cancelled wizard wrote .agentos/")
	}
}

func TestWizardValidators(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "src"), 0o755)
	check := existingFolders(root)
	for in, ok := range map[string]bool{".": true, "src": true, "src, .": true, "missing": false, "../x": false, "/etc": false, "": true} {
		if err := check(in); (err == nil) != ok {
			t.Errorf("folders %q: %v", in, err)
		}
	}
	for in, ok := range map[string]bool{"go, python": true, "none": true, "Go": true, "cobol": false, "go, cobol": false, "": true} {
		if err := knownLanguages(in); (err == nil) != ok {
			t.Errorf("languages %q: %v", in, err)
		}
	}
}
