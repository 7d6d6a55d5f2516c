// Package upgrade owns updating an installed project in place (`agentos
// upgrade`) and restoring it (`agentos rollback`): it reads the new version
// (the binary's own assets, or a commit of a git repository), decides
// every shipped file against the manifest of what agentos wrote (update,
// keep, a three-way merge that keeps the project's edits, or a conflict
// written beside the file), and carries the plan out in steps — preflight,
// a verified backup, update, .gitignore, validation, finalize — rolling back
// to the backup, checked byte for byte, when any step fails. Each step is
// recorded in the report the agentos_upgrade_v1 workflow's gates read.
package upgrade

import (
	"bytes"
	"strings"

	"github.com/agentos-dev/agentos/internal/linediff"
)

// MergeResult is the outcome of a three-way merge.
type MergeResult struct {
	Text      []byte
	Conflicts int // regions both sides changed differently; Text is not usable when > 0
}

// maxMergeCells bounds the quadratic diff: larger files are not merged line
// by line but treated as a conflict, which keeps the user's file.
const maxMergeCells = 16 << 20

// Merge3 merges the changes from base to ours and from base to theirs, line
// by line (diff3). Regions changed on one side take that side; regions
// changed identically on both take either; regions changed differently on
// both are conflicts. Line endings are compared as written.
func Merge3(base, ours, theirs []byte) MergeResult {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(base, theirs):
		return MergeResult{Text: ours}
	case bytes.Equal(base, ours):
		return MergeResult{Text: theirs}
	}
	b, o, t := splitLines(base), splitLines(ours), splitLines(theirs)
	if len(b)*max(len(o), len(t)) > maxMergeCells {
		return MergeResult{Text: ours, Conflicts: 1}
	}
	mo, mt := linediff.Matches(b, o), linediff.Matches(b, t) // base index → index in ours/theirs, or -1
	var out []string
	conflicts := 0
	bi, oi, ti := 0, 0, 0
	for bi <= len(b) {
		// Find the next base line kept by both sides (the end counts as one).
		next := bi
		for next < len(b) && (mo[next] < 0 || mt[next] < 0) {
			next++
		}
		oEnd, tEnd := len(o), len(t)
		if next < len(b) {
			oEnd, tEnd = mo[next], mt[next]
		}
		baseChunk, oChunk, tChunk := b[bi:next], o[oi:oEnd], t[ti:tEnd]
		switch {
		case equal(oChunk, tChunk), equal(baseChunk, tChunk):
			out = append(out, oChunk...)
		case equal(baseChunk, oChunk):
			out = append(out, tChunk...)
		default:
			conflicts++
			out = append(out, oChunk...)
		}
		if next == len(b) {
			break
		}
		out = append(out, b[next])
		bi, oi, ti = next+1, oEnd+1, tEnd+1
	}
	return MergeResult{Text: []byte(strings.Join(out, "")), Conflicts: conflicts}
}

// splitLines splits after each newline, keeping it, so joining restores the text.
func splitLines(data []byte) []string {
	s := string(data)
	var lines []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
