package app

// toucher has a touch of its own, which store.unexported cannot mean.
type toucher struct{}

func (toucher) touch() {}
