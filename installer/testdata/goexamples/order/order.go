// Package order is what the architecture example's billing package imports.
package order

type ID string

type Order struct {
	ID ID
}
