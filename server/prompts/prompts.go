// Package prompts offers the commands that start agentos's workflows and
// searches as MCP prompts (prompts/list, prompts/get), so clients that show a
// server's prompts (Claude Code, Cursor, VS Code, Gemini CLI, opencode, Zed)
// have them without command files. The text is the command files' own,
// assets/commands/, with the argument put in place of $ARGUMENTS.
package prompts

import (
	"context"
	"fmt"
	"github.com/agentos-dev/agentos/server/toolkit"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/assets"
)

// Limits on what a prompts/get request may carry. Names and values come from
// the client, so they are checked before anything is looked up or inserted.
const (
	// MaxNameBytes is the longest prompt or argument name; ours are short
	// words.
	MaxNameBytes = 64
	// MaxValueBytes is the longest argument value: a feature, a spec's name
	// or a query, a paragraph at most.
	MaxValueBytes = 4096
	// maxArguments is the most arguments a request may name.
	maxArguments = 8
	// shownBytes is how much of a refused name an error quotes.
	shownBytes = 32
)

// Registry is the prompts, one per command, in the commands' order.
type Registry struct {
	commands []assets.Command
}

// New returns the registry of the embedded commands.
func New() *Registry { return &Registry{commands: assets.Commands()} }

// Register adds the prompts to s.
func Register(s *mcpserver.MCPServer) {
	r := New()
	for _, p := range r.List() {
		s.AddPrompt(p, r.handle)
	}
}

// List is what prompts/list answers.
func (r *Registry) List() []mcp.Prompt {
	out := make([]mcp.Prompt, 0, len(r.commands))
	for _, c := range r.commands {
		arg := []mcp.ArgumentOption{mcp.ArgumentDescription(c.Argument.Description)}
		if c.Argument.Required {
			arg = append(arg, mcp.RequiredArgument())
		}
		out = append(out, mcp.NewPrompt(c.Name,
			mcp.WithPromptDescription(c.Description),
			mcp.WithArgument(c.Argument.Name, arg...)))
	}
	return out
}

func (r *Registry) handle(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return r.Get(req.Params.Name, req.Params.Arguments)
}

// Get is what prompts/get answers: the command's text with the argument's
// value in place of $ARGUMENTS, as one user message. The value is inserted as
// it is, once: it is never read as a template, and a "$ARGUMENTS" inside it
// stays as typed.
func (r *Registry) Get(name string, args map[string]string) (*mcp.GetPromptResult, error) {
	if len(name) > MaxNameBytes || !utf8.ValidString(name) {
		return nil, fmt.Errorf("prompt name %s is too long or not UTF-8 (at most %d bytes); prompts/list names the prompts", toolkit.Quoted(name, shownBytes), MaxNameBytes)
	}
	i := slices.IndexFunc(r.commands, func(c assets.Command) bool { return c.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("unknown prompt %s: the prompts are %s", strconv.Quote(name), strings.Join(r.names(), ", "))
	}
	c := r.commands[i]
	if len(args) > maxArguments {
		return nil, fmt.Errorf("prompt %s takes one argument, %s; the request names %d", c.Name, c.Argument.Name, len(args))
	}
	for k := range args {
		if k != c.Argument.Name {
			return nil, fmt.Errorf("prompt %s takes one argument, %s, not %s", c.Name, c.Argument.Name, toolkit.Quoted(k, shownBytes))
		}
	}
	value, err := checkValue(c, args[c.Argument.Name])
	if err != nil {
		return nil, err
	}
	if value == "" && c.Argument.Required {
		return nil, fmt.Errorf("prompt %s needs the argument %s: %s", c.Name, c.Argument.Name, c.Argument.Description)
	}
	text := strings.ReplaceAll(c.Text, assets.Arguments, value)
	return mcp.NewGetPromptResult(c.Description, []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text)),
	}), nil
}

// checkValue trims the value and refuses one too long, not UTF-8, or holding
// control characters other than tabs and line breaks (escape sequences,
// NULs) or the marks that reorder displayed text.
func checkValue(c assets.Command, v string) (string, error) {
	if len(v) > MaxValueBytes {
		return "", fmt.Errorf("the argument %s of prompt %s is too long (%d bytes; at most %d)", c.Argument.Name, c.Name, len(v), MaxValueBytes)
	}
	if !utf8.ValidString(v) {
		return "", fmt.Errorf("the argument %s of prompt %s is not UTF-8 text", c.Argument.Name, c.Name)
	}
	for _, r := range v {
		if (unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r') || unicode.Is(unicode.Bidi_Control, r) {
			return "", fmt.Errorf("the argument %s of prompt %s holds the control character %U", c.Argument.Name, c.Name, r)
		}
	}
	return strings.TrimSpace(v), nil
}

func (r *Registry) names() []string {
	var out []string
	for _, c := range r.commands {
		out = append(out, c.Name)
	}
	return out
}
