package assets

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// Every command file parses, is listed in commandOrder, and says what its
// argument is.
func TestCommands(t *testing.T) {
	cmds, err := parseCommands(files)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
		if c.Description == "" || c.Argument.Name == "" || c.Argument.Description == "" || !c.Argument.Required {
			t.Errorf("%s: %+v", c.Name, c)
		}
		if strings.Count(c.Text, Arguments) != 1 || strings.HasSuffix(c.Text, "\n") || strings.Contains(c.Text, "---") {
			t.Errorf("%s: the text is not the instructions alone:\n%s", c.Name, c.Text)
		}
	}
	if !slices.Equal(names, []string{"spec", "implement", "quick", "bugfix", "search"}) {
		t.Errorf("commands = %v", names)
	}
	entries, err := fs.ReadDir(files, CommandsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(names, strings.TrimSuffix(e.Name(), ".md")) {
			t.Errorf("%s/%s is not in commandOrder", CommandsDir, e.Name())
		}
	}
	if got := Commands(); len(got) != len(cmds) || got[0] != cmds[0] {
		t.Errorf("Commands() = %+v", got)
	}
}

func TestMalformedCommands(t *testing.T) {
	good := "---\ndescription: d\nargument:\n  name: a\n  description: b\n  required: true\n---\n\nDo $ARGUMENTS\n"
	for name, text := range map[string]string{
		"no frontmatter":  "Do $ARGUMENTS\n",
		"unterminated":    "---\ndescription: d\n",
		"unknown field":   strings.Replace(good, "description: d\n", "description: d\nextra: 1\n", 1),
		"no description":  strings.Replace(good, "description: d\n", "", 1),
		"no argument":     "---\ndescription: d\n---\n\nDo $ARGUMENTS\n",
		"no placeholder":  strings.Replace(good, "$ARGUMENTS", "it", 1),
		"trailing blanks": strings.Replace(good, "$ARGUMENTS\n", "$ARGUMENTS\n\n\n", 1),
	} {
		fsys := fstest.MapFS{}
		for _, n := range commandOrder {
			fsys[CommandsDir+"/"+n+".md"] = &fstest.MapFile{Data: []byte(good)}
		}
		fsys[CommandsDir+"/spec.md"] = &fstest.MapFile{Data: []byte(text)}
		if _, err := parseCommands(fsys); err == nil || !strings.Contains(err.Error(), "spec.md") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := parseCommands(fstest.MapFS{}); err == nil {
		t.Error("missing files parsed")
	}
}
