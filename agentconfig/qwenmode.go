package agentconfig

import (
	"fmt"
	"path/filepath"
)

// qwenYolo finds the approval mode a Qwen Code session started at root runs
// in, and reports `tools.approvalMode "yolo"` with the file that sets it
// when that is the mode: Qwen Code (0.24, packages/cli/src/config/config.ts)
// then holds no project server for approval. Its settings merge system
// defaults, then user, then workspace, then system settings, each over the
// one before, so the first of system, workspace, user and system defaults
// that sets the mode decides. The workspace's settings count only in a
// folder Qwen Code trusts, which doctor has checked before it asks. A
// --yolo or --approval-mode flag on a command line is not seen here.
func qwenYolo(c Client, root string, env Env) (setting, file string, err error) {
	env = env.withDefaults()
	for _, path := range []string{
		env.QwenSystem,
		c.ProjectPath(root),
		c.UserPath(env),
		filepath.Join(filepath.Dir(env.QwenSystem), "system-defaults.json"),
	} {
		mode, set, err := qwenApprovalMode(path)
		if err != nil {
			return "", "", err
		}
		if !set {
			continue
		}
		if mode == "yolo" {
			return `tools.approvalMode "yolo"`, path, nil
		}
		return "", "", nil
	}
	return "", "", nil
}

// qwenApprovalMode reads tools.approvalMode from one Qwen Code settings
// file; set is false when the file or the key is missing.
func qwenApprovalMode(path string) (mode string, set bool, err error) {
	if path == "" {
		return "", false, nil
	}
	data, _, exists, err := readFile(path)
	if err != nil || !exists {
		return "", false, err
	}
	doc, err := Decode(JSONC, data)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", path, err)
	}
	top, _ := doc.(map[string]any)
	tools, _ := top["tools"].(map[string]any)
	v, ok := tools["approvalMode"]
	if !ok {
		return "", false, nil
	}
	mode, _ = v.(string)
	return mode, true, nil
}
