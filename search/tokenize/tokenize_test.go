package tokenize

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func TestSplit(t *testing.T) {
	cases := map[string][]string{
		"parseHTTPHeader":   {"parse", "HTTP", "Header"},
		"ParseHTTPHeader":   {"Parse", "HTTP", "Header"},
		"parse_http_header": {"parse", "http", "header"},
		"HTTPServer":        {"HTTP", "Server"},
		"sha512":            {"sha", "512"},
		"utf8Valid":         {"utf", "8", "Valid"},
		"__init__":          {"init"},
		"x":                 {"x"},
		"ÜberParser":        {"Über", "Parser"},
	}
	for in, want := range cases {
		if got := Split(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Split(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTerms(t *testing.T) {
	got := Terms("The parseHTTPHeader function splits headers; see parse_http_header.")
	want := []string{"parsehttpheader", "pars", "http", "header", "function", "split", "header", "parsehttpheader", "pars", "http", "header"}
	// "see" survives: it is not a function word.
	want = append(want[:7], append([]string{"see"}, want[7:]...)...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %q\nwant    %q", got, want)
	}
}

func TestStem(t *testing.T) {
	cases := map[string]string{
		"connections":    "connect",
		"connection":     "connect",
		"connected":      "connect",
		"parsing":        "pars",
		"parses":         "pars",
		"concurrently":   "concurr",
		"concurrency":    "concurr",
		"initialization": "initi",
		"initialize":     "initi",
		"hopping":        "hop",
		"caresses":       "caress",
		"ponies":         "poni",
		"relational":     "relat",
		"generalization": "gener",
		"run":            "run",
		"utf8":           "utf8",
	}
	for in, want := range cases {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

// The stem cache holds copies: a word is most often a slice of a whole
// chunk's text, which the cache must not keep alive; ForgetStems empties it.
func TestStemCacheHoldsCopies(t *testing.T) {
	text := strings.Repeat("filler ", 100) + "sha256sum"
	w := text[len(text)-len("sha256sum"):]
	if s := Stem(w); s != w {
		t.Fatalf("Stem(%q) = %q; words with digits are kept as they are", w, s)
	}
	for _, s := range []string{Stem(w), cachedStem(t, w)} {
		if unsafe.StringData(s) == unsafe.StringData(w) {
			t.Error("the stem shares the text it came from")
		}
	}
	ForgetStems()
	if _, ok := stemCache.Load(w); ok {
		t.Error("ForgetStems left the cache filled")
	}
}

func cachedStem(t *testing.T, w string) string {
	v, ok := stemCache.Load(w)
	if !ok {
		t.Fatalf("%q is not cached", w)
	}
	return v.(string)
}
