package example

import "context"

type User struct {
	ID   int64
	Name string
}

type Store struct{}

func (s *Store) query(ctx context.Context, id int64) (User, error) { return User{ID: id}, nil }
