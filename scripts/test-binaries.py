#!/usr/bin/env python3
"""The test executables of `cargo test --no-run --message-format=json` (on stdin), one path per
line, in the order of the `--test NAME` arguments given: scripts/test.sh runs them itself
(its valgrind stage, two at a time). Fails on a name cargo built no executable for."""
import json
import sys

names = [a for a in sys.argv[1:] if a != "--test"]
built = {}
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
        kinds = msg["target"]["kind"]
        if "test" in kinds:
            built[msg["target"]["name"]] = msg["executable"]
missing = [n for n in names if n not in built]
if missing:
    sys.exit(f"test-binaries.py: no test executable for {', '.join(missing)}")
print("\n".join(built[n] for n in names))
