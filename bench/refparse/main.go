// Command refparse measures the chunker's declaration parsing on a whole
// code base against a reference parser's output (see scripts/refparse):
//
//	python3 scripts/refparse/py-decls.py DIR > /tmp/ref.json
//	go run ./bench/refparse -lang python -root DIR -ref /tmp/ref.json
//
// It prints the files, declarations, the share matched with the right
// symbol and declaration line, and the first misses.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/agentos-dev/agentos/search/chunk/refcheck"
)

func main() {
	lang := flag.String("lang", "", "language the chunker parses the files as (python, rust, java)")
	root := flag.String("root", "", "directory the reference's paths are relative to")
	refPath := flag.String("ref", "", "reference JSON printed by a scripts/refparse script")
	show := flag.Int("misses", 20, "misses to print")
	flag.Parse()
	if *lang == "" || *root == "" || *refPath == "" {
		fmt.Fprintln(os.Stderr, "refparse: -lang, -root and -ref are required; see -h.")
		os.Exit(2)
	}
	ref, err := refcheck.Load(*refPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refparse:", err)
		os.Exit(1)
	}
	r, err := refcheck.Compare(*root, *lang, ref)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refparse:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d files, %d declarations, %d matched (%.2f%%)\n", *lang, r.Files, r.Decls, r.Matched, 100*r.Share())
	for i, m := range r.Misses {
		if i == *show {
			fmt.Printf("… %d more\n", len(r.Misses)-i)
			break
		}
		fmt.Println("miss", m)
	}
}
