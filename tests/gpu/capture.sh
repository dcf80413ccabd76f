#!/usr/bin/env bash
# On the GPU machine (issue 48 item 3): capture this board with bin/cuda-stubs-capture
# (packaging/capture/cuda-stubs-capture.c, built here as CMakeLists.txt builds it), load the
# capture under the mock (CUDA_STUBS_MOCK=FILE) and compare tests/gpu/device_props/dump.sh's
# dump of the board with the dump of the mock, as tests/gpu/mock_device.sh does for h200.
#
#   OUT=$OUT bash tests/gpu/capture.sh STUBS_DIR
#
# Dry run without a GPU (checks this script): CAPTURE_BOARD_MOCK=h200 makes "the board" the mock
# under that profile (the capture reads it with CUDA_STUBS_CAPTURE_ALLOW_MOCK=1, the "real" dump
# runs linked to the stubs under it); CUDA_HOME then names a toolkit's headers for dump.sh.
# STUBS_DIR holds libstubs_cuda, libstubs_cudart, libstubs_nvml and libcuda_stubs_mock.so (e.g.
# target/debug after `cargo build -p stubs-cuda -p stubs-cudart -p stubs-nvml` and the mock's
# build). One device: device 0 (CUDA_VISIBLE_DEVICES=0 for every step).
# Writes under $OUT: captured.toml (--keep-ids: the board's own UUID and PCI location, so the
# dumps compare), captured-anon.toml (the default: those made up), real.toml, mock.toml, their
# stderr, and compare.txt. Exit 0 when 0 values differ and 0 are missing.
#
# Not counted as differing, and listed: the readings of the minute (temperature, power draw,
# current clocks, utilization, NVML's free and used memory: the capture and the dump are
# seconds apart, and the mock's used memory is its own allocations), and the runtime's version
# (the runtime library's, not the board's: the mock implements 13.5's runtime); and how the dump
# found NVML's device (nvml.handle_by: the mock has no lookup by PCI bus id yet).
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/capture.sh STUBS_DIR (libstubs_cuda, libstubs_cudart, libstubs_nvml and libcuda_stubs_mock.so)}")
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
capture=$OUT/cuda-stubs-capture
gcc -std=c11 -O2 -Wall -Wextra -DCUDA_STUBS_CAPTURE_OWN_START -nostartfiles \
  -o "$capture" "$root/packaging/capture/cuda-stubs-capture.c" -Wl,--no-as-needed -l:libdl.so.2 \
  || { echo "capture.sh: build of cuda-stubs-capture failed"; exit 1; }
dump=$root/tests/gpu/device_props/dump.sh
link="-L$D -lstubs_cuda -lstubs_cudart -lstubs_nvml -Wl,-rpath,$D"
board=()
if [ -n "${CAPTURE_BOARD_MOCK:-}" ]; then
  board=(env CUDA_STUBS_MOCK="$CAPTURE_BOARD_MOCK" CUDA_STUBS_CAPTURE_ALLOW_MOCK=1
         CUDA_STUBS_CAPTURE_LIBCUDA="$D/libcuda_stubs_mock.so"
         CUDA_STUBS_CAPTURE_LIBNVML="$D/libcuda_stubs_mock.so")
fi
"${board[@]}" "$capture" --device 0 --keep-ids -o "$OUT/captured.toml" 2> "$OUT/capture.err"; echo "capture --keep-ids rc=$?"
cat "$OUT/capture.err"
"${board[@]}" "$capture" --device 0 -o "$OUT/captured-anon.toml" 2>> "$OUT/capture.err"; echo "capture rc=$?"
if [ -n "${CAPTURE_BOARD_MOCK:-}" ]; then
  CUDA_STUBS_MOCK="$CAPTURE_BOARD_MOCK" DUMP_LINK="$link" bash "$dump" > "$OUT/real.toml" \
    2> "$OUT/real.err"; echo "dump of the stand-in board (mock $CAPTURE_BOARD_MOCK) rc=$?"
else
  bash "$dump" > "$OUT/real.toml" 2> "$OUT/real.err"; echo "dump linked normally rc=$?"
fi
CUDA_STUBS_MOCK="$OUT/captured.toml" CUDA_STUBS_DEBUG=1 DUMP_LINK="$link" bash "$dump" \
  > "$OUT/mock.toml" 2> "$OUT/mock.err"; echo "dump on the mock, CUDA_STUBS_MOCK=captured.toml rc=$?"
grep -h "bound\|CUDA_STUBS_MOCK\|mock (profile" "$OUT/mock.err" | head -8
python3 - "$OUT" <<'PY' | tee "$OUT/compare.txt"
import sys, tomllib
out = sys.argv[1]
load = lambda n: tomllib.load(open(f"{out}/{n}.toml", "rb"))
real, mock, anon = load("real"), load("mock"), load("captured-anon")
kept = load("captured")
# Readings of the minute, and the runtime library's version: listed, not counted.
volatile = {
    "device.runtime_version",
    "nvml.memory_free", "nvml.memory_used", "nvml.memory_v2_free", "nvml.memory_v2_used",
    "nvml.bar1_free", "nvml.bar1_used",
    "nvml.temperature_gpu_c", "nvml.temperature_v_gpu_c", "nvml.power_usage_mw",
    "nvml.utilization_gpu", "nvml.utilization_memory",
    "nvml.clock_graphics_mhz", "nvml.clock_sm_mhz", "nvml.clock_mem_mhz",
    "nvml.performance_state",
}
# How the dump found NVML's device (by PCI bus id, else by index), not a value of the board: the
# mock answers nvmlDeviceGetHandleByPciBusId_v2 "not supported" (issue 48 item 5), so "index".
how = {"nvml.handle_by"}
same = diff = missing = 0
for sec in ("device", "attributes", "properties", "nvml"):
    for k, v in real.get(sec, {}).items():
        name = f"{sec}.{k}"
        o = mock.get(sec, {}).get(k)
        if o is None:
            missing += 1
            print(f"  missing: {name} (real {v})")
        elif o == v:
            same += 1
        elif name in volatile:
            print(f"  of the minute: {name} real={v} mock={o}")
        elif name in how:
            print(f"  not a board value: {name} real={v} mock={o}")
        else:
            diff += 1
            print(f"  differs: {name} real={v} mock={o}")
print(f"mock (the capture) vs the board: {same} equal, {diff} differ, {missing} missing")
# The default capture hides the board's identity and changes nothing else.
ids_ok = anon["device"]["uuid"] != kept["device"]["uuid"] and \
    anon["device"]["pci_bus_id"] == "00000000:01:00.0"
for sec in ("driver", "attributes", "nvml"):
    for k, v in kept[sec].items():
        if k in ("CU_DEVICE_ATTRIBUTE_PCI_BUS_ID", "CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID",
                 "CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID"):
            continue
        if sec == "nvml" and k in ("temperature", "power_usage", "clock_graphics", "clock_sm",
                                   "clock_memory", "utilization_gpu", "utilization_memory",
                                   "bar1_used", "performance_state"):
            continue
        if anon[sec].get(k) != v:
            ids_ok = False
            print(f"  default capture: {sec}.{k} {anon[sec].get(k)} (with --keep-ids {v})")
print(f"default capture: UUID and PCI location made up, the rest the same: {'yes' if ids_ok else 'NO'}")
sys.exit(0 if diff == 0 and missing == 0 and ids_ok else 1)
PY
