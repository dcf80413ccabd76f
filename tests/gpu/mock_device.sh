#!/usr/bin/env bash
# On the GPU machine (issue 37): tests/gpu/device_props/dump.sh linked normally, linked to the stubs, and
# linked to the stubs under CUDA_STUBS_MOCK=h200; the three compared.
# Writes real.toml, stubs.toml, mock.toml and their stderr under $OUT.
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/mock_device.sh STUBS_DIR (libstubs_cuda, libstubs_cudart, libstubs_nvml and libcuda_stubs_mock.so)}")
dump=tests/gpu/device_props/dump.sh
link="-L$D -lstubs_cuda -lstubs_cudart -lstubs_nvml -Wl,-rpath,$D"
bash $dump > $OUT/real.toml 2> $OUT/real.err; echo "linked normally rc=$?"
DUMP_LINK="$link" bash $dump > $OUT/stubs.toml 2> $OUT/stubs.err; echo "linked to the stubs rc=$?"
CUDA_STUBS_MOCK=h200 CUDA_STUBS_DEBUG=1 DUMP_LINK="$link" bash $dump > $OUT/mock.toml 2> $OUT/mock.err; echo "stubs + CUDA_STUBS_MOCK=h200 rc=$?"
grep -h "bound\|CUDA_STUBS_MOCK" $OUT/mock.err | head -8
python3 - "$OUT" <<'PY'
import sys, tomllib
out = sys.argv[1]
load = lambda n: tomllib.load(open(f"{out}/{n}.toml", "rb"))
real, stubs, mock = load("real"), load("stubs"), load("mock")
for name, other in (("stubs", stubs), ("mock", mock)):
    same = diff = missing = 0
    for sec in ("device", "attributes", "properties", "nvml"):
        for k, v in real.get(sec, {}).items():
            o = other.get(sec, {}).get(k)
            if o is None:
                missing += 1
                if name == "mock": print(f"  {name}: {sec}.{k} not modelled (real {v})")
            elif o == v:
                same += 1
            else:
                diff += 1
                print(f"  {name}: {sec}.{k} real={v} {name}={o}")
    print(f"{name} vs linked normally: {same} equal, {diff} differ, {missing} missing")
PY
