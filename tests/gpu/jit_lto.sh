#!/usr/bin/env bash
# GPU proof of the NVRTC -> nvJitLink -> driver path through the stubs, with a program nobody here
# wrote: cuda-samples' jitLto (NVRTC `-dlto`, nvrtcGetLTOIR, nvJitLink LTO to a CUBIN,
# cuModuleLoadData, launch, check), built ONCE against the machine's 13.x headers by nvcc and
# linked only to libstubs_nvrtc.so, libstubs_cuda.so and libstubs_nvjitlink.so; then run with
# each NVRTC x nvJitLink pair of 13.x (the machine's), 12.9 and 11.8 (NVIDIA's wheel files).
#
#   tests/gpu/jit_lto.sh SAMPLES STUBS NVRTC12_DIR NVRTC11_DIR NVJITLINK12
#
#   SAMPLES      a cuda-samples checkout (or .tar.xz, top folder cuda-samples/)
#   STUBS        folder with the release libstubs_*.so
#   NVRTC12_DIR / NVRTC11_DIR  libnvrtc.so.12 / libnvrtc.so.11.2 (+ their builtins)
#   NVJITLINK12  the libnvJitLink.so.12 file of nvidia-nvjitlink-cu12
set -u
samples=$1 nvrtc12=$3 nvrtc11=$4 nvjl12=$5
stubs=$(cd "$2" && pwd)
W=$(mktemp -d)
mkdir -p "$W/s"
cp "$stubs"/libstubs_*.so "$W/s/"
# nvcc's `-lnvrtc -lcuda -lnvJitLink` resolve to the stubs.
for l in nvrtc cuda; do ln -sf "$W/s/libstubs_$l.so" "$W/s/lib$l.so"; done
ln -sf "$W/s/libstubs_nvjitlink.so" "$W/s/libnvJitLink.so"
if [ -f "$samples" ]; then tar xJf "$samples" -C "$W"; else cp -r "$samples" "$W/cuda-samples"; fi
cd "$W/cuda-samples/Samples/4_CUDA_Libraries/jitLto" || exit 1
nvcc -O2 -I../../../Common -o jitLto jitLto.cpp -L"$W/s" -lnvrtc -lcuda -lnvJitLink -Xlinker -rpath="$W/s" || exit 1
readelf -d jitLto | grep NEEDED
nm -D jitLto | grep -i jitlink
run() {
  echo "== $1"
  shift
  env "$@" CUDA_STUBS_DEBUG=1 ./jitLto > "$W/log" 2>&1
  local rc=$?
  grep -E "bound /|PASSED|error|failed" "$W/log" | grep -v candidate
  echo "rc=$rc"
}
run "NVRTC 13.x, nvJitLink 13.x"
run "NVRTC 12.9, nvJitLink 12.9" CUDA_STUBS_NVRTC_PATH="$nvrtc12/libnvrtc.so.12" CUDA_STUBS_NVJITLINK_PATH="$nvjl12"
run "NVRTC 12.9, nvJitLink 13.x" CUDA_STUBS_NVRTC_PATH="$nvrtc12/libnvrtc.so.12"
run "NVRTC 13.x, nvJitLink 12.9 (newer LTO-IR: the library's own error)" CUDA_STUBS_NVJITLINK_PATH="$nvjl12"
run "NVRTC 11.8, nvJitLink 12.9" CUDA_STUBS_NVRTC_PATH="$nvrtc11/libnvrtc.so.11.2" CUDA_STUBS_NVJITLINK_PATH="$nvjl12"
rm -rf "$W"
