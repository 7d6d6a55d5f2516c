package examplecheck

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

// missingObject are the SQLSTATEs of statements that parse and plan but
// name a table, column, function, type, schema or parameter the empty
// database lacks: the examples' own schema is not part of them.
var missingObject = map[string]bool{
	"42P01": true, // undefined_table
	"42703": true, // undefined_column
	"42883": true, // undefined_function
	"42704": true, // undefined_object
	"3F000": true, // invalid_schema_name
	"42P02": true, // undefined_parameter ($1 outside a prepared statement)
}

// checkSQL runs each block, in its own psql session, against a throwaway
// PostgreSQL server in dir. psql's ON_ERROR_ROLLBACK wraps each statement of
// a transaction in a savepoint, so a missing table does not stop the
// statements after it from being checked.
func checkSQL(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error) {
	bin, err := postgresBin(opts.PostgresBin)
	if err != nil {
		return nil, err
	}
	pg, err := StartPostgres(ctx, bin, dir)
	if err != nil {
		return nil, err
	}
	defer pg.Stop()
	files, names, err := writeSources(dir, blocks, ".sql", "")
	if err != nil {
		return nil, err
	}
	diag := regexp.MustCompile(`(?m)^psql:(b\d{3}\.sql):(\d+): ERROR:  (\w{5}): (.*)$`)
	located := regexp.MustCompile(`^psql:(\S+?):(\d+): ERROR:  (.*)$`)
	var problems []Problem
	for _, name := range names {
		out, err := pg.Psql(ctx, "-v", "ON_ERROR_ROLLBACK=on", "-v", "VERBOSITY=verbose", "-f", name) // relative: psql names the file as given
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("psql %s: %v: %s", name, err, out)
		}
		for _, m := range diag.FindAllStringSubmatch(string(out), -1) {
			if missingObject[m[3]] {
				continue
			}
			problems = append(problems, mapDiagnostics([]byte(m[0]), located, files)...)
		}
	}
	return problems, nil
}

// postgresBin finds the folder of initdb, pg_ctl and psql.
func postgresBin(configured string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", skipError{"PostgreSQL (initdb) is not installed; run scripts/install-checkers.sh"}
	}
	// The newest major version: /usr/lib/postgresql/<version>/bin/initdb.
	version := func(p string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(filepath.Dir(p))), 64)
		return v
	}
	sort.Slice(found, func(i, j int) bool { return version(found[i]) < version(found[j]) })
	return filepath.Dir(found[len(found)-1]), nil
}

// Postgres is a throwaway PostgreSQL server listening only on a Unix socket
// in its folder, for tests.
type Postgres struct {
	bin, dir string
	run      func(ctx context.Context, name string, args ...string) ([]byte, error)
}

// StartPostgres initialises a cluster in dir/data and starts it; bin is the
// folder of initdb, pg_ctl and psql ("" finds them). PostgreSQL refuses to
// run as root, so as root the server runs as the postgres user. Stop it with
// Stop.
func StartPostgres(ctx context.Context, bin, dir string) (*Postgres, error) {
	if bin == "" {
		b, err := postgresBin("")
		if err != nil {
			return nil, err
		}
		bin = b
	}
	run, err := runAsNonRoot(dir)
	if err != nil {
		return nil, err
	}
	pg := &Postgres{bin: bin, dir: dir, run: run}
	data := filepath.Join(dir, "data")
	if out, err := run(ctx, filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses= -c fsync=off", dir)
	if out, err := run(ctx, filepath.Join(bin, "pg_ctl"), "-D", data, "-o", opts, "-l", filepath.Join(dir, "server.log"), "-w", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		return nil, fmt.Errorf("pg_ctl start: %v: %s%s", err, out, log)
	}
	return pg, nil
}

// Psql runs psql against the server's postgres database with args.
func (pg *Postgres) Psql(ctx context.Context, args ...string) ([]byte, error) {
	psql := filepath.Join(pg.bin, "psql")
	if _, err := os.Stat(psql); err != nil {
		if psql, err = exec.LookPath("psql"); err != nil {
			return nil, fmt.Errorf("psql is not installed: %w", err)
		}
	}
	return pg.run(ctx, psql, append([]string{"-X", "-q", "-h", pg.dir, "-U", "postgres", "-d", "postgres"}, args...)...)
}

// Stop stops the server at once; its folder is the caller's to remove.
func (pg *Postgres) Stop() {
	pg.run(context.Background(), filepath.Join(pg.bin, "pg_ctl"), "-D", filepath.Join(pg.dir, "data"), "-m", "immediate", "-w", "stop")
}
