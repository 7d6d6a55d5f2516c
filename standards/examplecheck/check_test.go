package examplecheck_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/standards/examplecheck"
)

const doc = "# Doc\n" +
	"<!-- check: fragment -->\n" +
	"```go\nx := 1\n```\n" +
	"text\n" +
	"<!-- check: go1.22 -->\n" +
	"<!-- check: assume\ntype Order struct{ ID int64 }\n-->\n" +
	"```golang\nfunc f(o Order) int64 { return o.ID }\n```\n" +
	"~~~~py extra words\nprint(1)\n~~~~\n" +
	"```sh\nls\n```\n"

func TestExtract(t *testing.T) {
	blocks := examplecheck.Extract("d.md", []byte(doc))
	if len(blocks) != 4 {
		t.Fatalf("got %d blocks: %+v", len(blocks), blocks)
	}
	if b := blocks[0]; !b.Fragment || b.Lang != "go" || b.Line != 3 || b.Code != "x := 1\n" {
		t.Errorf("block 0 = %+v", b)
	}
	if b := blocks[1]; b.Fragment || b.GoVersion != "1.22" || b.Assume != "type Order struct{ ID int64 }\n" || b.Line != 11 {
		t.Errorf("block 1 = %+v", b)
	}
	if b := blocks[2]; b.Lang != "python" || b.Assume != "" || b.Code != "print(1)\n" {
		t.Errorf("block 2 = %+v (markers must not carry over text)", b)
	}
	if b := blocks[3]; b.Lang != "sh" {
		t.Errorf("block 3 = %+v", b)
	}
}

// TestCheckFindsBrokenExamples shows that each checker fails a broken block
// and passes a sound one, at the document's line.
func TestCheckFindsBrokenExamples(t *testing.T) {
	md := "# Broken\n" +
		"```go\nfunc add(a, b int) int { return a + b }\n```\n" + // 2: sound
		"```go\nfunc f() { fmt.Printf(\"%d\", \"s\") }\n```\n" + // 5: vet printf
		"```go\nfunc g() { for i := range 3 { _ = i } }\n```\n" + // 8: Go 1.22 syntax at 1.21
		"```go\nfunc h(ctx context.Context) { _ = slices.Concat([]int{1}, []int{2}) }\n```\n" + // 11: Go 1.22 API
		"<!-- check: go1.22 -->\n```go\nfunc k() { for i := range 3 { _ = i } }\n```\n" + // 15: allowed
		"```python\nimport os\n\ndef f():\n    return undefined_name\n```\n" + // 18: pyflakes
		"```python\ndef f(:\n    pass\n```\n" + // 24: syntax
		"```python\nimport os\nprint(os.sep)\n```\n" + // 28: sound
		"```typescript\nconst n: number = \"s\";\n```\n" + // 32
		"```ts\nimport { randomUUID } from \"node:crypto\";\nexport const id: string = randomUUID();\n```\n" + // 35: sound
		"```sql\nSELEC 1;\n```\n" + // 39: syntax
		"```sql\nBEGIN;\nCREATE INDEX CONCURRENTLY i ON t (c);\nCOMMIT;\n```\n" + // 42: not in a transaction
		"```sql\nSELECT id FROM missing_table WHERE id = $1;\n```\n" + // 47: parses
		"```json\n{\"a\": 1,}\n```\n" + // 50
		"```js\nexport function f(a) {\n  return a +;\n}\n```\n" + // 53: syntax
		"```js\nexport const twice = (n) => n * 2;\n```\n" + // 58: sound (JavaScript is not type-checked)
		"```ts\nimport { greet } from \"greeter\";\nexport const s: string = greet(\"x\");\n```\n" + // 61: sound, with its declaration
		"```ts\nimport { greet } from \"greeter\";\nexport const n: number = greet(\"x\");\n```\n" + // 65: the declaration says string
		"```ts\nexport const half: number = ;\n```\n" // 69: syntax, which must not hide 32's and 65's type errors
	blocks := examplecheck.Extract("broken.md", []byte(md))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := examplecheck.Options{TypeScriptFiles: map[string][]byte{
		"greeter.d.ts": []byte(`declare module "greeter" { export function greet(name: string): string; }`),
	}}
	r, err := examplecheck.Check(ctx, blocks, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, p := range r.Problems {
		got[p.Block.Line] += p.Message + "; "
	}
	want := map[string][]int{ // language → lines of the blocks that must fail
		"go": {5, 8, 11}, "python": {18, 24}, "typescript": {32, 65, 69}, "sql": {39, 42}, "json": {50}, "javascript": {53},
	}
	sound := []int{2, 15, 28, 35, 47, 58, 61}
	for lang, lines := range want {
		if why, skipped := r.Skipped[lang]; skipped {
			if os.Getenv("CI") == "true" {
				t.Errorf("%s: %s", lang, why)
			} else {
				t.Logf("SKIP %s: %s", lang, why)
			}
			continue
		}
		for _, l := range lines {
			if got[l] == "" {
				t.Errorf("%s block at line %d passed; want a problem", lang, l)
			}
		}
	}
	for _, l := range sound {
		if got[l] != "" {
			t.Errorf("sound block at line %d: %s", l, got[l])
		}
	}
	for l, msg := range got {
		t.Logf("line %d: %s", l, strings.TrimSuffix(msg, "; "))
	}
}

// When every example fails to parse there is nothing left to type-check:
// each is reported once, and no second tsc run fails on an empty list.
func TestCheckEveryTypeScriptExampleBroken(t *testing.T) {
	md := "```ts\nexport const a: number = ;\n```\n" + // 1
		"```js\nexport const b = ;\n```\n" // 4
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := examplecheck.Check(ctx, examplecheck.Extract("broken.md", []byte(md)), examplecheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if why, skipped := r.Skipped["typescript"]; skipped {
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	lines := map[int]int{}
	for _, p := range r.Problems {
		lines[p.Block.Line]++
	}
	if len(r.Problems) != 2 || lines[1] != 1 || lines[4] != 1 {
		t.Errorf("problems %v; want one at line 1 and one at line 4", r.Problems)
	}
}
