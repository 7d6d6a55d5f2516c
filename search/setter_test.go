package search

import (
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

func TestIsSetter(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"func ReconnectJitter(d time.Duration) Option {\n\treturn func(o *Options) error {\n\t\to.ReconnectJitter = d\n\t\treturn nil\n\t}\n}", true},
		{"func (c *Client) SetTimeout(d time.Duration) { c.timeout = d }", true},
		{"func (b *Builder) Name(n string) *Builder {\n\tb.cfg.name = n // kept\n\treturn b\n}", true},
		{"func WithTLS(cfg *tls.Config) Option {\n\treturn optionFunc(func(o *options) { o.tls = cfg })\n}", true},
		{"func WithDialer(f func(string) net.Conn) Option {\n\treturn optionFunc(func(o *options) {\n\t\to.dial = f\n\t\to.custom = true\n\t})\n}", true},
		{"func WithLimit(n int) Option {\n\treturn optionFunc(func(o *options) { o.limit = max(n, 1) })\n}", false},
		{"func (c *Client) SetTimeout(d time.Duration) {\n\tc.mu.Lock()\n\tc.timeout = d\n\tc.mu.Unlock()\n}", false},
		{"func (c *Client) reconnect() error {\n\tc.conn = dial(c.addr)\n\treturn nil\n}", false},
		{"func (c *Client) Timeout() time.Duration { return c.timeout }", false},
		{"func New() *T { return &T{} }", false},
		{"func (c *C) Set(v interface{ M() }) { c.v = v }", true},
	} {
		c := chunk.Chunk{Language: "go", Kind: chunk.Func, Text: tc.src, StartLine: 1, DeclLine: 1}
		if got := isSetter(&c); got != tc.want {
			t.Errorf("isSetter(%s) = %v, want %v", strings.SplitN(tc.src, "\n", 2)[0], got, tc.want)
		}
	}
}

// A symbol's callers lift its prior in Go, not in TypeScript
// (ScriptFanInBoost).
func TestCallersWeighOutsideTypeScript(t *testing.T) {
	root := writeProject(t, map[string]string{
		"go.mod": "module example.com/shop\n",
		"shop/shop.go": "package shop\n\n// Called rounds a price.\nfunc Called(p int) int { return p }\n\n// Alone rounds a price.\nfunc Alone(p int) int { return p }\n\n" +
			"func a() int { return Called(1) }\nfunc b() int { return Called(2) }\nfunc c() int { return Called(3) }\n",
		"web/shop.ts": "/** Rounds a price. */\nexport function called(p: number): number { return p }\n\n/** Rounds a price. */\nexport function alone(p: number): number { return p }\n\n" +
			"export function a(): number { return called(1) }\nexport function b(): number { return called(2) }\nexport function c(): number { return called(3) }\n",
	})
	ix := build(t, CodeOptions(root, nil, nil))
	prior := map[string]float64{}
	for id, m := range ix.st.metas {
		if m != nil {
			prior[m.Path+":"+m.Symbol] = ix.prior(ix.st, uint32(id), kinds{})
		}
	}
	if c, a := prior["shop/shop.go:Called"], prior["shop/shop.go:Alone"]; !(c > a) {
		t.Errorf("Go: a function called three times has the prior %v, one never called %v", c, a)
	}
	if c, a := prior["web/shop.ts:called"], prior["web/shop.ts:alone"]; c != a || c == 0 {
		t.Errorf("TypeScript: a function called three times has the prior %v, one never called %v", c, a)
	}
}
