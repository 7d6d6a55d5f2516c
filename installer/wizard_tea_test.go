package installer

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/exp/teatest"
)

// runForm drives one of the wizard's forms through teatest with keys.
func runForm(t *testing.T, field huh.Field, keys ...tea.KeyMsg) string {
	t.Helper()
	form := huh.NewForm(huh.NewGroup(field))
	form.SubmitCmd = tea.Quit
	form.CancelCmd = tea.Quit
	tm := teatest.NewTestModel(t, form, teatest.WithInitialTermSize(100, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("?")) }, teatest.WithDuration(5*time.Second))
	for _, k := range keys {
		tm.Send(k)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if f, ok := final.(*huh.Form); !ok || f.State != huh.StateCompleted {
		t.Fatalf("form did not complete: %T", final)
	}
	out, _ := io.ReadAll(tm.FinalOutput(t))
	return string(out)
}

func TestWizardFormsInTheTerminal(t *testing.T) {
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
	runForm(t, secondaryField("claude-code", &picked), space, down, space, enter) // Claude Desktop, Cursor
	if strings.Join(picked, ",") != "claude-desktop,cursor" {
		t.Errorf("picked %v", picked)
	}
}
