package search

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/vector"
)

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(n))
	}
	return out
}

// The query's vector moves towards the best chunks', each counting by its
// share of their scores, and not at all when none has a score.
func TestFeedbackVector(t *testing.T) {
	st := &state{vec: vector.New(2)}
	for id, v := range [][]float32{{1, 0}, {0, 1}, {0, 1}} {
		if err := st.vec.Set(uint32(id), v); err != nil {
			t.Fatal(err)
		}
	}
	qv := []float32{3, 4}
	near := func(got, want []float32) bool {
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-2 {
				return false
			}
		}
		return len(got) == len(want)
	}
	if got := feedbackVector(st, qv, []*candidate{{id: 0, score: 1}}, 0); !near(got, unit(qv)) {
		t.Errorf("beta 0: %v, want the query's own vector made unit length %v", got, unit(qv))
	}
	// Chunk 0 has three quarters of the scores, chunk 1 a quarter.
	top := []*candidate{{id: 0, score: 0.75}, {id: 1, score: 0.25}}
	want := []float32{0.6 + 0.5*0.75, 0.8 + 0.5*0.25}
	if got := feedbackVector(st, qv, top, 0.5); !near(got, want) {
		t.Errorf("beta 0.5: %v, want %v", got, want)
	}
	if got := feedbackVector(st, qv, []*candidate{{id: 0}, {id: 1, score: -1}}, 0.5); got != nil {
		t.Errorf("no chunk with a score: %v, want nil", got)
	}
	if got := feedbackVector(st, qv, nil, 0.5); got != nil {
		t.Errorf("no chunk: %v, want nil", got)
	}
}

// manyFunctions is a project of n documented functions, each speaking of
// two of a few topics, so that every query matches most of them.
func manyFunctions(n int) map[string]string {
	topics := []string{"order", "cart", "payment", "invoice", "customer", "storage", "request", "session"}
	var b strings.Builder
	b.WriteString("package shop\n")
	for i := 0; i < n; i++ {
		a, c := topics[i%len(topics)], topics[(i/len(topics))%len(topics)]
		fmt.Fprintf(&b, "\n// Handle%d writes the %s of a %s to storage.\nfunc Handle%d() {}\n", i, a, c, i)
	}
	return map[string]string{"shop/shop.go": b.String()}
}

// Feedback changes hybrid scores only; lexical and vector search rank as
// without it. In a small project, where the best chunks are most of them,
// there is none.
func TestFeedbackOnlyInHybrid(t *testing.T) {
	ranked := func(root string, fb float64, m Method) []Result {
		tu := DefaultTuning()
		tu.FeedbackVector = fb
		opt := CodeOptions(root, nil, nil)
		opt.Tuning = &tu
		return search(t, build(t, opt), Query{Text: "write an order to storage", Method: m, ContentBudget: -1})
	}
	root := writeProject(t, manyFunctions(120))
	for _, m := range []Method{Lexical, Vector} {
		if on, off := ranked(root, 0.25, m), ranked(root, 0, m); !reflect.DeepEqual(on, off) {
			t.Errorf("%s search changed with feedback:\n%v\n%v", m, on, off)
		}
	}
	on, off := ranked(root, 0.25, Hybrid), ranked(root, 0, Hybrid)
	if len(on) == 0 || len(on) != len(off) {
		t.Fatalf("hybrid: %d results with feedback, %d without", len(on), len(off))
	}
	if reflect.DeepEqual(on, off) {
		t.Error("hybrid scores did not change with feedback")
	}
	small := writeProject(t, project)
	if on, off := ranked(small, 0.25, Hybrid), ranked(small, 0, Hybrid); !reflect.DeepEqual(on, off) {
		t.Errorf("feedback in a small project:\n%v\n%v", on, off)
	}
}
