package chk

import (
	"fmt"
	"os"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

func TestShow(t *testing.T) {
	p := os.Getenv("F")
	src, _ := os.ReadFile(p)
	for _, c := range chunk.Code(p, chunk.LanguageOf(p), src) {
		fmt.Printf("%d-%d decl %d %s %s doc=%q\n", c.StartLine, c.EndLine, c.DeclLine, c.Kind, c.Symbol, c.Doc)
	}
}
