package chunk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// describe is a symbol chunk in one line: kind, symbol, start, declaration
// and end lines, exported and test marks.
func describe(c Chunk) string {
	s := fmt.Sprintf("%s %s %d %d %d", c.Kind, c.Symbol, c.StartLine, c.DeclLine, c.EndLine)
	if c.Exported {
		s += " exported"
	}
	if c.Test {
		s += " test"
	}
	return s
}

// checkConstructs chunks a file of testdata/constructs and compares its
// symbol chunks, in order, with want.
func checkConstructs(t *testing.T, name string, want []string) []Chunk {
	t.Helper()
	p := filepath.Join("testdata", "constructs", name)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	cs := Code(name, LanguageOf(name), src)
	var got []string
	for _, c := range cs {
		if c.Kind == Window {
			t.Fatalf("%s did not parse", name)
		}
		if c.Symbol != "" {
			got = append(got, describe(c))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s symbols:\n got: %s\nwant: %s", name, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	return cs
}

func bySymbol(cs []Chunk, sym string) Chunk {
	for _, c := range cs {
		if c.Symbol == sym {
			return c
		}
	}
	return Chunk{}
}
