package search

import (
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

// indexSignature is the signature the lexical index reads. TypeScript's
// type arguments and parameters are left out: libraries thread the same ones
// (<TQueryFnData, TError, TData, TQueryKey>) through every signature, and
// their words (data, error, key) would match every question that has them.
// The vector keeps them: there they did not help.
func indexSignature(c *chunk.Chunk) string {
	sig := c.Signature
	if c.Language != "typescript" || !strings.Contains(sig, "<") {
		return sig
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(sig); i++ {
		switch ch := sig[i]; {
		case ch == '<' && (depth > 0 || i > 0 && typeNameEnd(sig[i-1])):
			depth++
		case ch == '>' && depth > 0 && sig[i-1] != '=':
			depth--
		case depth == 0:
			b.WriteByte(ch)
		}
	}
	if depth != 0 {
		// A "<" that was a comparison (in a default value).
		return sig
	}
	return b.String()
}

// typeNameEnd reports whether c may precede the "<" of type arguments or
// parameters.
func typeNameEnd(c byte) bool {
	return c == '_' || c == '$' || c == ' ' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
