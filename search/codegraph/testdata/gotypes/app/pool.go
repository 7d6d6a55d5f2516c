package app

import "example.com/fix/store"

// Fill uses a buffer of the shared pool, through a variable holding a
// method value, and one of a new pool, on a call's result.
func Fill() int {
	b := store.GetBuffer()
	b.AppendByte('x')
	c := store.NewPool().Get()
	c.AppendByte('y')
	return b.Len() + c.Len()
}

// ApplyNil names a method through a method expression.
func ApplyNil(n *store.Node) store.Future {
	apply := (*store.Node).Apply
	return apply(n, nil)
}
