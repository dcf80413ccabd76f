#!/usr/bin/env bash
# The book (docs/, mdBook): builds it into docs/book and fails on any mdBook warning or error
# and on any broken link, in the built book or in README.md and docs/src/*.md as GitHub shows
# them (scripts/check-links.py). Run by scripts/test.sh (CI); mdbook comes from
# scripts/setup-machine.sh test.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v mdbook >/dev/null || { echo "check-docs.sh: no mdbook (scripts/setup-machine.sh test installs it)" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
mdbook build docs >"$log" 2>&1 || status=$?
cat "$log"
if [ "$status" != 0 ]; then
  echo "check-docs.sh: mdbook build failed ($status)" >&2
  exit 1
fi
# mdBook logs a missing include, an unknown config key, ... as WARN or ERROR and still succeeds.
if grep -Eq '\b(WARN|ERROR)\b' "$log"; then
  echo "check-docs.sh: mdbook build logged warnings or errors (above)" >&2
  exit 1
fi
python3 scripts/check-links.py
