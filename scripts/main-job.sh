#!/usr/bin/env bash
# The main job: build the stubs, build the bundled example once (against CUDA 13.5 headers,
# linked only against the stubs), and run that same binary against the real CUDA 11.8, 12.9
# and 13.5 libraries from NVIDIA's wheels and against none.
#
# Usage: scripts/main-job.sh [11|12|13|none ...]   (default: all four)
set -euo pipefail
cd "$(dirname "$0")/.."

python3 scripts/fetch-cuda.py >/dev/null
cache=$(python3 scripts/fetch-cuda.py --print-cache)
cargo build --release --quiet -p stubs-cudart -p stubs-nvrtc -p stubs-cuda

out=target/release
layout() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$cache/cuda-$1/layout.json" "$2"; }
include=$(layout 13 'd["include"][0]')
gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$out/vector_add" example/vector_add.c \
    -I"$include" -Iinclude -L"$out" -lstubs_cudart -lstubs_nvrtc -lstubs_cuda \
    -Wl,-rpath,'$ORIGIN'
echo "example built against CUDA 13.5 headers; its DT_NEEDED entries:"
readelf -d "$out/vector_add" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/  \1/p'

status=0
for which in "${@:-11 12 13 none}"; do
  for m in $which; do
    echo
    if [ "$m" = none ]; then
      echo "######## no CUDA libraries"
      env -u CUDA_STUBS_CUDART_PATH -u CUDA_STUBS_NVRTC_PATH LD_LIBRARY_PATH= "$out/vector_add" || status=1
    else
      echo "######## CUDA $(layout "$m" 'd["version"]') (NVIDIA wheels)"
      # The override (step 2 of the search) pins the major even where the system has another.
      CUDA_STUBS_CUDART_PATH=$(layout "$m" 'd["cudart"]') CUDA_STUBS_NVRTC_PATH=$(layout "$m" 'd["nvrtc"]') \
        "$out/vector_add" || status=1
    fi
  done
done
exit $status
