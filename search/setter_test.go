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
