#!/usr/bin/env bash
# Installs the reference parsers for Rust and Java declarations: tree-sitter's
# WebAssembly runtime (npm web-tree-sitter) and the grammars the tree-sitter
# project publishes on npm with their .wasm builds. Pure npm: no compiler,
# no native build. Installs into ~/.cache/agentos-refparse/treesitter (or
# $AGENTOS_REFPARSE_DIR/treesitter) and prints that directory.
set -euo pipefail
dir="${AGENTOS_REFPARSE_DIR:-$HOME/.cache/agentos-refparse}/treesitter"
pkgs=(web-tree-sitter@0.25.10 tree-sitter-rust@0.24.0 tree-sitter-java@0.23.5)
if [ ! -f "$dir/.installed" ] || [ "$(cat "$dir/.installed")" != "${pkgs[*]}" ]; then
	command -v npm >/dev/null || { echo "install-treesitter: npm is needed to install the reference parsers." >&2; exit 1; }
	mkdir -p "$dir"
	# --ignore-scripts: only the published .wasm files are used, never a
	# native build.
	(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --ignore-scripts "${pkgs[@]}" >&2)
	echo "${pkgs[*]}" >"$dir/.installed"
fi
echo "$dir"
