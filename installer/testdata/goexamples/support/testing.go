package example

import "net/http"

func ParseSize(s string) (int64, error) { return 0, nil }

type memoryStore struct{}

type Users struct{ store *memoryStore }

func NewUsers(store *memoryStore) *Users { return &Users{store: store} }

func (u *Users) Get(w http.ResponseWriter, r *http.Request) {}
