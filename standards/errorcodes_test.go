package standards

import (
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/assets"
)

// errorTableStandard is the one standard that pairs each error code with
// its HTTP status.
const errorTableStandard = "project/api-error-responses.md"

var (
	tableRowRE = regexp.MustCompile("^\\| ([A-Z][A-Z_]+) \\| ([45][0-9][0-9]) \\|")
	statusRE   = regexp.MustCompile(`\b[45][0-9][0-9]\b`)
	// A code named as the value of an error_code, in prose or in code.
	namedCodeRE = regexp.MustCompile("(?:error_code|error code|Code:)[`\"':\\s]*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})\\b")
)

// errorTable reads the code → status table.
func errorTable(text string) map[string]int {
	table := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		if m := tableRowRE.FindStringSubmatch(line); m != nil {
			table[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	return table
}

// codeStatusPairs finds, on each line, every known code and the status
// nearest to it (at most maxGap characters away); a code named after
// "error_code" that the table lacks is returned with status 0. The keywords
// line, a list of search terms, has no pairs.
func codeStatusPairs(text string, table map[string]int) []codePair {
	const maxGap = 40
	codes := map[string]*regexp.Regexp{}
	for code := range table {
		codes[code] = regexp.MustCompile(`\b` + code + `\b`)
	}
	var out []codePair
	for n, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "Keywords:") {
			continue
		}
		statuses := statusRE.FindAllStringIndex(line, -1)
		for code, re := range codes {
			for _, loc := range re.FindAllStringIndex(line, -1) {
				best, gap := 0, maxGap+1
				for _, s := range statuses {
					d := max(s[0]-loc[1], loc[0]-s[1])
					if d < gap {
						best, gap = s[0], d
					}
				}
				if gap <= maxGap {
					status, _ := strconv.Atoi(line[best : best+3])
					out = append(out, codePair{line: n + 1, code: code, status: status})
				}
			}
		}
		for _, m := range namedCodeRE.FindAllStringSubmatch(line, -1) {
			if _, ok := table[m[1]]; !ok {
				out = append(out, codePair{line: n + 1, code: m[1]})
			}
		}
	}
	return out
}

type codePair struct {
	line   int
	code   string
	status int // 0: a code the table does not have
}

// TestErrorCodesFollowTheTable checks that every (error code, HTTP status)
// pair any universal standard names is the pair the API-errors standard's
// table gives, and that no standard names a code the table lacks.
func TestErrorCodesFollowTheTable(t *testing.T) {
	sub, err := assets.Sub(assets.UniversalStandards)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(sub, errorTableStandard)
	if err != nil {
		t.Fatal(err)
	}
	table := errorTable(string(data))
	for _, code := range []string{"VALIDATION_ERROR", "BUSINESS_LOGIC_ERROR", "NOT_FOUND", "UNAUTHORIZED", "FORBIDDEN", "INTERNAL_ERROR"} {
		if table[code] == 0 {
			t.Errorf("the table lacks %s, one of the codes agent tools use", code)
		}
	}
	statuses := map[int]bool{}
	for _, s := range table {
		statuses[s] = true
	}
	for _, s := range []int{409, 422, 429, 503, 504} {
		if !statuses[s] {
			t.Errorf("no code in the table has status %d, which the standards prescribe", s)
		}
	}
	pairs := 0
	err = fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text, err := fs.ReadFile(sub, name)
		if err != nil {
			return err
		}
		for _, p := range codeStatusPairs(string(text), table) {
			pairs++
			switch {
			case p.status == 0:
				t.Errorf("%s:%d: error code %s is not in %s", name, p.line, p.code, errorTableStandard)
			case p.status != table[p.code]:
				t.Errorf("%s:%d: %s with %d; %s gives %d", name, p.line, p.code, p.status, errorTableStandard, table[p.code])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pairs < 20 {
		t.Errorf("only %d code-status pairs found: is the pattern still matching?", pairs)
	}
}

func TestCodeStatusPairsCatchMismatches(t *testing.T) {
	table := map[string]int{"INTERNAL_ERROR": 500, "UNAVAILABLE": 503, "FORBIDDEN": 403, "NOT_FOUND": 404}
	text := "answer quickly with 503 and `error_code` INTERNAL_ERROR\n" + // mismatch
		"Not allowed: 403 FORBIDDEN (or 404 to hide it)\n" + // nearest is 403
		`raise APIError(404, "NOT_FOUND", "gone")` + "\n" +
		"answer 422 with error code `KEY_REUSED`\n" // not in the table
	got := codeStatusPairs(text, table)
	want := map[codePair]bool{{1, "INTERNAL_ERROR", 503}: true, {2, "FORBIDDEN", 403}: true, {3, "NOT_FOUND", 404}: true, {4, "KEY_REUSED", 0}: true}
	if len(got) != len(want) {
		t.Fatalf("pairs = %+v", got)
	}
	for _, p := range got {
		if !want[p] {
			t.Errorf("unexpected pair %+v (all: %+v)", p, got)
		}
	}
}
