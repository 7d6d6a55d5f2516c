package example

import "context"

type Item struct{}

func fetch(ctx context.Context, id string) (Item, error) { return Item{}, nil }

type Job struct{ ID string }

type Worker struct {
	log interface {
		Error(msg string, args ...any)
	}
}

func (w *Worker) handle(ctx context.Context, job Job) error { return nil }
