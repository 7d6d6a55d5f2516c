package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// tsFiles is a small TypeScript and JavaScript project written without
// semicolons (Prettier semi: false, StandardJS).
var tsFiles = map[string]string{
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

  report() {
    return formatSeconds(clock.now())
  }

  watch(timer: Timer) {
    timer.every(60, this.evictOldest)
  }

  sweep() {
    // Walk the whole table and forget entries past their expiry.
    // Unlike report(), it never needs formatSeconds(ms).
    for (const [k, v] of this.entries) if (v.expired) this.entries.delete(k)
  }
}

/** Formats a duration in milliseconds as seconds with one decimal. */
export const formatSeconds = (ms: number) => (ms / 1000).toFixed(1) + ' s'
`,
	"src/cache.test.ts": `import { formatSeconds } from './cache'

it('formats a duration', () => {
  expect(formatSeconds(1500)).toBe('1.5 s')
})
`,
	"lib/app.js": `'use strict'

const app = exports = module.exports = {}

/**
 * Listens for connections on the given port and host.
 */
app.listen = function listen (port, host) {
  return http.createServer(this).listen(port, host)
}
`,
}

// TestTypeScriptSearchE2E searches semicolon-free TypeScript and CommonJS
// JavaScript through the server: members, options and expression-bodied
// arrow functions are found as their own symbols, as are an undocumented
// method by its inner comment and a method by its name spelled in words, and
// the graph knows who calls an arrow-function constant (a test's top-level
// code does; a comment naming it does not) and who hands a method on as a
// value.
func TestTypeScriptSearchE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, tsFiles)
	_, c := serveSearch(t, root)
	waitIndexes(t, c)

	for _, tc := range []struct{ query, path, symbol string }{
		{"drop the least recently used entry when the cache is full", "src/cache.ts", "LruCache.evictOldest"},
		{"how many entries the cache keeps before dropping the oldest", "src/cache.ts", "CacheOptions.capacity"},
		{"format a duration in milliseconds as seconds", "src/cache.ts", "formatSeconds"},
		{"listen for connections on a port and host", "lib/app.js", "app.listen"},
		{"forget entries past their expiry", "src/cache.ts", "LruCache.sweep"}, // its inner comment
		{"evict oldest", "src/cache.ts", "LruCache.evictOldest"},               // its name, spelled
	} {
		out := mustSearch(t, c, map[string]any{"action": "search_code", "query": tc.query, "n_results": 3})
		if len(out.Results) == 0 || out.Results[0].Path != tc.path || out.Results[0].Symbol != tc.symbol {
			t.Errorf("%q: want %s %s first, got %+v", tc.query, tc.path, tc.symbol, out.Results)
		}
	}
	// sweep names formatSeconds( in a comment only: it is no caller; the
	// test file's top-level statements are one.
	out := mustSearch(t, c, map[string]any{"action": "find_callers", "query": "formatSeconds"})
	var callers []string
	for _, c := range out.Callers {
		callers = append(callers, fmt.Sprintf("%s %s:%d", c.Symbol, c.Path, c.CallLine))
	}
	slices.Sort(callers)
	if strings.Join(callers, ", ") != "cache.LruCache.report src/cache.ts:21, cache.test.<module> src/cache.test.ts:4" {
		t.Errorf("callers of formatSeconds: %+v, want LruCache.report and src/cache.test.ts's <module> at line 4", out.Callers)
	}
	// A method handed to a timer rather than called is listed, marked.
	out = mustSearch(t, c, map[string]any{"action": "find_callers", "query": "LruCache.evictOldest"})
	if len(out.Callers) != 1 || !strings.HasSuffix(out.Callers[0].Symbol, "LruCache.watch") || !out.Callers[0].Value ||
		out.Callers[0].CallLine != 25 {
		t.Errorf("callers of LruCache.evictOldest: %+v, want LruCache.watch naming it as a value at line 25", out.Callers)
	}
}
