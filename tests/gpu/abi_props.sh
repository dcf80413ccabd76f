#!/usr/bin/env bash
# GPU proof of the cross-major ABI adapters (needs an NVIDIA GPU and driver 580+).
#
#   tests/gpu/abi_props.sh STUBS_DIR INC13 INC12 CUDART11 CUDART12 CUDART13
#
#   STUBS_DIR   folder with libstubs_cudart.so and libstubs_cuda.so
#   INC13/INC12 colon-separated include folders of the CUDA 13.0 / 12.9 headers
#               (cuda_runtime_api.h and cuda.h; layout.json "include" of cuda-13 / cuda-12)
#   CUDART11/12/13  the real libcudart.so.11.0 / .12 / .13 files (or their folders)
#
# Builds tests/gpu/abi_props.c twice (13.0 and 12.9 headers) with gcc, linked only against the
# stubs, and runs each build with CUDA_STUBS_CUDART_PATH pointing at real 11.8, 12.9 and 13.0 in
# turn. Every check prints PASS/FAIL; the script exits 1 if any run failed.
set -u
if [ $# -ne 6 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
stubs=$1 inc13=$2 inc12=$3
runtimes=("11:$4" "12:$5" "13:$6")
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
incs() { local IFS=:; for d in $1; do printf -- '-I%s ' "$d"; done; }
status=0
for h in 13 12; do
  inc=$inc13
  [ "$h" = 12 ] && inc=$inc12
  # shellcheck disable=SC2046
  if ! gcc -std=c11 -O1 -Wall -o "$out/abi_props_$h" "$here/abi_props.c" $(incs "$inc") \
      -L"$stubs" -lstubs_cudart -lstubs_cuda -Wl,-rpath,"$stubs"; then
    echo "FAIL build against CUDA $h headers"
    status=1
    continue
  fi
  for rt in "${runtimes[@]}"; do
    major=${rt%%:*} path=${rt#*:}
    echo "=== program built against CUDA $h headers, real runtime $major ($path)"
    if ! CUDA_STUBS_CUDART_PATH=$path CUDA_STUBS_DEBUG=1 "$out/abi_props_$h"; then
      echo "FAIL headers $h on runtime $major"
      status=1
    fi
  done
done
[ $status = 0 ] && echo "ALL PASS" || echo "SOME FAILED"
exit $status
