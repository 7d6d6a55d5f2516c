package app

import "example.com/fix/store"

// Drain waits on a pipeline's results: a local set in a select's case
// from a channel an interface's method returns.
func Drain(p store.Pipeline, stop chan struct{}) uint64 {
	ch := p.Consumer()
	var last uint64
	for {
		select {
		case f := <-ch:
			last = f.Index()
		case <-stop:
			return last
		}
	}
}

// First applies a command on a new cluster's first node: an element of a
// field of a call's result, and a call on its method's result.
func First() uint64 {
	c := store.NewCluster(3)
	n := c.Nodes[0]
	f := n.Apply([]byte("x"))
	return f.Index()
}
