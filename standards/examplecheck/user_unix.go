//go:build unix

package examplecheck

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// runAsNonRoot returns a function that runs a program with its output
// combined: as the postgres user when the process is root (dir is then
// handed to that user), as the current user otherwise.
func runAsNonRoot(dir string) (func(ctx context.Context, name string, args ...string) ([]byte, error), error) {
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, skipError{"PostgreSQL refuses to run as root and there is no postgres user"}
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		err = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, uid, gid)
		})
		if err != nil {
			return nil, fmt.Errorf("hand %s to the postgres user: %w", dir, err)
		}
	}
	return func(ctx context.Context, name string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		if cred != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
		return cmd.CombinedOutput()
	}, nil
}
