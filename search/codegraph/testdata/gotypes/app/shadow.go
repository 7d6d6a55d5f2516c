package app

import "example.com/fix/store"

// Shadow declares v in two blocks with two types: each call is on the one
// in scope.
func Shadow(x any) int {
	v, ok := x.(store.Level)
	if !ok {
		return 0
	} else if v.CapitalString() == "" {
		v, _ := x.(*store.Node)
		v.Apply(nil)
	}
	return int(v)
}
