package search

import (
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// TestTypeScriptWithoutSemicolons indexes code written without semicolons
// and finds a class member, an interface option and an arrow-function
// constant by what their documentation says, each as its own symbol.
func TestTypeScriptWithoutSemicolons(t *testing.T) {
	root := writeProject(t, map[string]string{
		"src/cache.ts": `import { clock } from './clock'

export interface CacheOptions {
  /** How many entries the cache keeps before it drops the oldest. */
  capacity: number
  ttl?: number
}

export class LruCache<V> {
  private entries = new Map<string, V>()

  constructor(private options: CacheOptions) {}

  /** Drops the least recently used entry when the cache is full. */
  evictOldest() {
    const first = this.entries.keys().next()
    if (!first.done) this.entries.delete(first.value)
  }
}

/** Formats a duration in milliseconds as seconds with one decimal. */
export const formatSeconds = (ms: number) => (ms / 1000).toFixed(1) + ' s'
`,
	})
	ix := build(t, CodeOptions(root, nil, nil))
	for _, tc := range []struct {
		query, symbol, kind string
		start               int
	}{
		{"drop the least recently used entry when full", "LruCache.evictOldest", "method", 14},
		{"how many entries before dropping the oldest", "CacheOptions.capacity", "var", 4},
		{"format a duration in milliseconds as seconds", "formatSeconds", "func", 21},
	} {
		rs := search(t, ix, Query{Text: tc.query, Limit: 3})
		if len(rs) == 0 || rs[0].Symbol != tc.symbol || rs[0].Kind != tc.kind || rs[0].StartLine != tc.start {
			t.Errorf("%q: got %v, want %s (%s) starting at line %d first", tc.query, symbols(rs), tc.symbol, tc.kind, tc.start)
		}
	}
}

// TestIndexSignatureWithoutTypeParameters checks that the lexical index reads
// a TypeScript signature without its type arguments and parameters.
func TestIndexSignatureWithoutTypeParameters(t *testing.T) {
	for sig, want := range map[string]string{
		"fetchQuery< TQueryFnData, TError = DefaultError, TQueryKey extends QueryKey = QueryKey >( options: FetchQueryOptions<TQueryFnData, TError, TQueryKey>, ): Promise<TData>": "fetchQuery( options: FetchQueryOptions, ): Promise",
		"export function map<T, R>(project: (value: T, index: number) => R): OperatorFunction<T, R>":                                                                               "export function map(project: (value: T, index: number) => R): OperatorFunction",
		"export function f(x = a < b)":    "export function f(x = a < b)",
		"export const g = (x: number) =>": "export const g = (x: number) =>",
	} {
		c := chunk.Chunk{Language: "typescript", Signature: sig}
		if got := indexSignature(&c); got != want {
			t.Errorf("%q: got %q, want %q", sig, got, want)
		}
	}
	if c := (chunk.Chunk{Language: "go", Signature: "func Map[S ~[]E, E any](s S) S"}); indexSignature(&c) != c.Signature {
		t.Error("a Go signature changed")
	}
}

// TestConstructorRanksBelowItsClass checks that a class's constructor, which
// borrows the class's summary, ranks below the class for a question about
// what the class does.
func TestConstructorRanksBelowItsClass(t *testing.T) {
	root := writeProject(t, map[string]string{
		"src/replay.ts": `/** A subject that replays old values to new subscribers. */
export class ReplaySubject<T> {
  /**
   * Makes a subject that replays old values to new subscribers.
   * @param bufferSize how many values to replay
   */
  constructor(private bufferSize = 10) {}
}
`})
	rs := search(t, build(t, CodeOptions(root, nil, nil)), Query{Text: "subject that replays old values to new subscribers", Limit: 2})
	if len(rs) != 2 || rs[0].Symbol != "ReplaySubject" || rs[1].Symbol != "ReplaySubject.constructor" {
		t.Errorf("got %v, want the class, then its constructor", symbols(rs))
	}
}
