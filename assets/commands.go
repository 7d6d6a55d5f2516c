package assets

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// CommandsDir holds the text of the commands that start the workflows and
// searches, one markdown file per command: a YAML frontmatter (description,
// argument) and the instructions. It is the one source of both the
// slash-command files install writes (agentconfig) and the MCP prompts the
// server offers (server/prompts).
const CommandsDir = "commands"

// Arguments stands, in a command's text, for what the person typed after the
// command: the slash-command files keep it (Gemini CLI's spell it {{args}}),
// the prompts put the argument's value in its place.
const Arguments = "$ARGUMENTS"

// commandOrder is the order of the commands, in the files and the prompts
// alike; every file of CommandsDir is listed here.
var commandOrder = []string{"spec", "implement", "quick", "bugfix", "search"}

// Command is one command of CommandsDir.
type Command struct {
	Name        string // spec: the file's name; the slash command is agentos-spec
	Description string
	Argument    CommandArgument
	Text        string // the instructions, without a final newline; Arguments marks the argument
}

// CommandArgument is what a command takes after its name.
type CommandArgument struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
}

var loadCommands = sync.OnceValues(func() ([]Command, error) { return parseCommands(files) })

// Commands returns the commands, in their order. The text is embedded and
// checked by the tests, so a malformed file is a defect of the build: it
// panics.
func Commands() []Command {
	cmds, err := loadCommands()
	if err != nil {
		panic(err)
	}
	return cmds
}

type fileReader interface {
	ReadFile(name string) ([]byte, error)
}

// parseCommands reads the commands of commandOrder from fsys.
func parseCommands(fsys fileReader) ([]Command, error) {
	var out []Command
	for _, name := range commandOrder {
		data, err := fsys.ReadFile(path.Join(CommandsDir, name+".md"))
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		cmd, err := parseCommand(name, data)
		if err != nil {
			return nil, fmt.Errorf("assets: %s/%s.md: %w", CommandsDir, name, err)
		}
		out = append(out, cmd)
	}
	return out, nil
}

// parseCommand reads "---\n<frontmatter>---\n\n<text>\n".
func parseCommand(name string, data []byte) (Command, error) {
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return Command{}, fmt.Errorf("no frontmatter")
	}
	front, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return Command{}, fmt.Errorf("the frontmatter does not end")
	}
	var meta struct {
		Description string          `yaml:"description"`
		Argument    CommandArgument `yaml:"argument"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(front))
	dec.KnownFields(true)
	if err := dec.Decode(&meta); err != nil {
		return Command{}, fmt.Errorf("frontmatter: %w", err)
	}
	text := strings.TrimSuffix(strings.TrimPrefix(string(body), "\n"), "\n")
	switch {
	case meta.Description == "" || strings.Contains(meta.Description, "\n"):
		return Command{}, fmt.Errorf("the description must be one line")
	case meta.Argument.Name == "" || meta.Argument.Description == "":
		return Command{}, fmt.Errorf("the argument needs a name and a description")
	case !strings.Contains(text, Arguments):
		return Command{}, fmt.Errorf("the text does not use %s", Arguments)
	case strings.TrimSpace(text) != text:
		return Command{}, fmt.Errorf("the text starts or ends with blank space")
	}
	return Command{Name: name, Description: meta.Description, Argument: meta.Argument, Text: text}, nil
}
