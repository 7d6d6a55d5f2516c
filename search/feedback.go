package search

import "math"

// feedbackVector returns the query's vector moved towards the vectors of the
// best chunks of a first ranking: their mean, each made unit length and
// weighted by its share of their scores, is added with weight beta to the
// query's own made unit length. It returns nil when no chunk has a score.
func feedbackVector(st *state, qv []float32, top []*candidate, beta float64) []float32 {
	var sum float64
	for _, c := range top {
		sum += max(c.score, 0)
	}
	if sum <= 0 {
		return nil
	}
	out := make([]float32, len(qv))
	add := func(v []float32, w float64) {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if n == 0 {
			return
		}
		f := float32(w / math.Sqrt(n))
		for i, x := range v {
			out[i] += f * x
		}
	}
	add(qv, 1)
	for _, c := range top {
		if v := st.vec.Vector(c.id); v != nil && c.score > 0 {
			add(v, beta*c.score/sum)
		}
	}
	return out
}
