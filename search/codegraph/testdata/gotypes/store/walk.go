package store

// TouchAll ranges over the fields of List, declared in list.go.
func (l *List) TouchAll() {
	for _, it := range l.items {
		it.Touch()
	}
	for name, it := range l.byName {
		_ = name
		it.Touch()
	}
	for it := range l.ch {
		it.Touch()
	}
	h := l.head
	h.Touch()
	n := l.head.next
	n.Touch()
}
