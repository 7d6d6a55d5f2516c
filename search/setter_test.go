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

func TestIsSetterScriptAndPython(t *testing.T) {
	for _, tc := range []struct {
		language, src string
		want          bool
	}{
		{"typescript", "set timeout(ms: number) { this._timeout = ms }", true},
		{"typescript", "setRetries(n: number): this {\n    this.#opts.retries = n;\n    return this;\n  }", true},
		{"javascript", "withName(name) {\n  // kept for later\n  this.name = name\n  return this\n}", true},
		{"typescript", "configure(o: Options): { ok: boolean } {\n  this.options = o\n}", true},
		{"typescript", "reset() {\n  this.count = 0\n  this.notify()\n}", false},
		{"typescript", "setLimit(n: number) { this.limit = Math.max(n, 1) }", false},
		{"typescript", "get timeout() { return this._timeout }", false},
		{"typescript", "run(): void {}", false},
		{"python", "def set_timeout(self, seconds):\n    \"\"\"Set the timeout.\"\"\"\n    self._timeout = seconds\n", true},
		{"python", "def timeout(self, value: float) -> None:\n    self._opts.timeout: float = value  # seconds\n", true},
		{"python", "def with_name(self, name): self.name = name", true},
		{"python", "def reset(self):\n    \"\"\"Start again.\"\"\"\n    self.count = 0\n    return self\n", true},
		{"python", "def close(self):\n    self.closed = True\n    self._sock.close()\n", false},
		{"python", "def size(self) -> dict[str, int]:\n    return self._size\n", false},
		{"python", "def update(self, **kw):\n    self.__dict__.update(kw)\n", false},
	} {
		c := chunk.Chunk{Language: tc.language, Kind: chunk.Method, Text: tc.src, StartLine: 1, DeclLine: 1}
		if got := isSetter(&c); got != tc.want {
			t.Errorf("isSetter(%s: %s) = %v, want %v", tc.language, strings.SplitN(tc.src, "\n", 2)[0], got, tc.want)
		}
	}
}

// The index marks setters as the chunkers cut them, in every language,
// and never a constructor.
func TestSettersMarkedWhenIndexed(t *testing.T) {
	root := writeProject(t, map[string]string{
		"web/client.ts": "export class Client {\n  private timeout = 0\n  constructor(private base: string) {\n    this.base = base\n  }\n\n" +
			"  /** Sets how long a request may take. */\n  setTimeout(ms: number): this {\n    this.timeout = ms\n    return this\n  }\n\n" +
			"  set limit(n: number) { this._limit = n }\n\n  send(path: string): Promise<Response> {\n    return fetch(this.base + path, { signal: AbortSignal.timeout(this.timeout) })\n  }\n}\n",
		"py/client.py": "class Client:\n    def __init__(self, base):\n        self.base = base\n\n    def set_timeout(self, seconds):\n        \"\"\"Set how long a request may take.\"\"\"\n        self.timeout = seconds\n\n" +
			"    def send(self, path):\n        return urlopen(self.base + path, timeout=self.timeout)\n",
	})
	ix := build(t, CodeOptions(root, nil, nil))
	marked := map[string]bool{}
	for _, m := range ix.st.metas {
		if m != nil && m.Symbol != "" {
			marked[m.Symbol] = marked[m.Symbol] || m.Setter
		}
	}
	for sym, want := range map[string]bool{"Client.setTimeout": true, "Client.limit": true, "Client.set_timeout": true,
		"Client.constructor": false, "Client.__init__": false, "Client.send": false} {
		if got, ok := marked[sym]; !ok || got != want {
			t.Errorf("%s: setter %v (indexed %v), want %v; all: %v", sym, got, ok, want, marked)
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
