package example

import "database/sql"

type User struct {
	ID   int64
	Name string
}

type Store struct{ db *sql.DB }
