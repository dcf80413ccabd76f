#!/usr/bin/env bash
# The main job: build the stubs, build the bundled example twice, linked only against the
# stubs (runtime, NVRTC, driver, nvJitLink) — against the CUDA 13.5 headers (-lstubs_cudart) and against the 12.9 headers
# (-lstubs_cudart_abi12: the link records CUDA 12's ABI for the names whose prototype changed
# in 13.0) — and run both binaries against the real CUDA 11.8, 12.9 and 13.5 libraries from
# NVIDIA's wheels and against none.
#
# Usage: scripts/main-job.sh [11|12|13|none ...]   (default: all four)
set -euo pipefail
cd "$(dirname "$0")/.."

python3 scripts/fetch-cuda.py >/dev/null
cache=$(python3 scripts/fetch-cuda.py --print-cache)
cargo build --release --quiet -p stubs-cudart -p stubs-cudart-abi12 -p stubs-nvrtc -p stubs-cuda \
  -p stubs-nvjitlink

out=target/release
layout() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$cache/cuda-$1/layout.json" "$2"; }
# vector_add: CUDA 13.5 headers; vector_add_cuda12: CUDA 12.9 headers, its cudart link for
# CUDA 12's ABI (what cuda-stubs-cudart-12.pc links).
for headers in 13 12; do
  exe=$out/vector_add cudart=-lstubs_cudart
  [ "$headers" = 12 ] && exe=$out/vector_add_cuda12 cudart=-lstubs_cudart_abi12
  includes=$(layout "$headers" '" ".join("-I" + i for i in d["include"])')
  # shellcheck disable=SC2086 # one flag per include folder
  gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$exe" example/vector_add.c \
      $includes -Iinclude -L"$out" "$cudart" -lstubs_nvrtc -lstubs_cuda -lstubs_nvjitlink -Wl,-rpath,'$ORIGIN'
  echo "example built against CUDA $(layout "$headers" 'd["version"]') headers, linked $cudart; DT_NEEDED and the cudart versions it records:"
  readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/  \1/p'
  readelf -V "$exe" | sed -n 's/.*Name: \(CUDA_STUBS_[A-Z_0-9]*\).*/  \1/p'
done

status=0
for which in "${@:-11 12 13 none}"; do
  for m in $which; do
    for exe in "$out/vector_add" "$out/vector_add_cuda12"; do
      echo
      if [ "$m" = none ]; then
        echo "######## no CUDA libraries: $(basename "$exe")"
        env -u CUDA_STUBS_CUDART_PATH -u CUDA_STUBS_NVRTC_PATH -u CUDA_STUBS_NVJITLINK_PATH LD_LIBRARY_PATH= \
          "$exe" || status=1
      else
        echo "######## CUDA $(layout "$m" 'd["version"]') (NVIDIA wheels): $(basename "$exe")"
        # The override (step 2 of the search) pins the major even where the system has another.
        # nvJitLink has no 11.x release: there the example gets the stub's "no library" error.
        nvjitlink=$(layout "$m" 'd.get("nvjitlink", "")')
        env CUDA_STUBS_CUDART_PATH="$(layout "$m" 'd["cudart"]')" CUDA_STUBS_NVRTC_PATH="$(layout "$m" 'd["nvrtc"]')" \
          ${nvjitlink:+CUDA_STUBS_NVJITLINK_PATH=$nvjitlink} "$exe" || status=1
      fi
    done
  done
done
exit $status
