package store

// List holds items in a slice, a map and a channel.
type List struct {
	items  []*Item
	byName map[string]*Item
	ch     chan Item
	head   *Item
	feed   chan *Item
}

// Items returns the list's items.
func (l *List) Items() []*Item { return l.items }
