#!/usr/bin/env bash
# Usage: scripts/cfg-crates.sh CRATE...
# Prints `-p CRATE` (one word a line) for each of the workspace crates named whose Rust
# sources test the target in a cfg (`cfg(windows)`, `cfg!(target_arch = ...)`, ...): the crates
# whose code differs on another target, which scripts/test.sh (Windows) and
# scripts/test-aarch64.sh lint there with clippy. The others compile the same code on every
# target (a stub crate is the macro's expansion, whose target-specific parts are stub-loader's
# macros): clippy for x86-64 covers them, and the build stage compiles them for each target.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --no-deps --format-version 1 | python3 -c '
import json, pathlib, re, sys
pattern = re.compile(r"cfg!?\(.*(windows|unix|target_os|target_family|target_arch|target_env|target_pointer_width)")
dirs = {p["name"]: pathlib.Path(p["manifest_path"]).parent for p in json.load(sys.stdin)["packages"]}
for crate in sys.argv[1:]:
    if crate not in dirs:
        sys.exit(f"cfg-crates: {crate} is not a workspace crate")
    if any(pattern.search(f.read_text()) for f in (dirs[crate] / "src").rglob("*.rs")):
        print("-p", crate, sep="\n")
' "$@"
