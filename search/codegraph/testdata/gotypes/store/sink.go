package store

import "io"

// Sink embeds a standard library interface: its method set is Write and
// Sync.
type Sink interface {
	io.Writer
	Sync() error
}

// FileSink is a Sink: Write comes from the io.Writer it embeds.
type FileSink struct {
	io.Writer
}

func (f *FileSink) Sync() error { return nil }

// Flusher has Sync alone: no Sink.
type Flusher struct{}

func (Flusher) Sync() error { return nil }

// unexported is implemented only in this package.
type unexported interface {
	touch()
}

type toucher struct{}

func (toucher) touch() {}

// Flush syncs a sink.
func Flush(s Sink) { s.Sync() }
