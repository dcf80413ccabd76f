#!/usr/bin/env bash
# GPU proof of the nvFatbin stub: tests/gpu/nvfatbin_load.c (NVRTC compiles a kernel for the
# device to PTX and CUBIN, nvFatbin builds a fatbinary of both and one of the PTX alone, the
# driver loads each with cuModuleLoadData and runs the kernel, checked on the host) built against
# the machine's CUDA headers, linked to the stubs and, for comparison, normally; both run on the
# machine's driver and the toolkit's nvFatbin and NVRTC. The two runs must print the same lines:
# the same fatbinary bytes (size and hash) and the same results.
#
#   tests/gpu/nvfatbin.sh PREFIX OUT [CUDA]
#
#   PREFIX  `scripts/install.sh --prefix PREFIX` (libstubs_nvfatbin.so, libstubs_nvrtc.so,
#           libstubs_cuda.so)
#   OUT     a folder for the programs
#   CUDA    the toolkit (default $CUDA_HOME, else /usr/local/cuda): include/nvFatbin.h,
#           lib64/libnvfatbin.so.<major>, lib64/libnvrtc.so.<major>; the CUDA 13.0 toolkit on
#           the GPU machine
#
# The stub build finds nvFatbin and NVRTC in $CUDA/lib64 through CUDA_STUBS_NVFATBIN_PATH and
# CUDA_STUBS_NVRTC_PATH, the driver (libcuda.so.1) where the dynamic loader finds it.
set -u
if [ $# -lt 2 ]; then
  sed -n '2,19p' "$0" >&2
  exit 2
fi
P=$1 out=$2
cuda=${3:-${CUDA_HOME:-/usr/local/cuda}}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
[ -f "$cuda/include/nvFatbin.h" ] || { echo "no include/nvFatbin.h under $cuda" >&2; exit 2; }
echo "== nvFatbin: $(ls "$cuda"/lib64/libnvfatbin.so.* | tr '\n' ' ')"
# libcuda: the toolkit's link-time stub library (lib64/stubs), the driver's at run time.
gcc -std=c11 -O1 -o "$out/nvfatbin_normal" "$here/nvfatbin_load.c" -I"$cuda/include" \
  -L"$cuda/lib64" -lnvfatbin -lnvrtc -L"$cuda/lib64/stubs" -lcuda -Wl,-rpath,"$cuda/lib64" || exit 1
gcc -std=c11 -O1 -o "$out/nvfatbin_stub" "$here/nvfatbin_load.c" -I"$cuda/include" \
  -L"$P/lib" -lstubs_nvfatbin -lstubs_nvrtc -lstubs_cuda -Wl,-rpath,"$P/lib" || exit 1
status=0
for exe in nvfatbin_normal nvfatbin_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_NVFATBIN_PATH=$cuda/lib64 CUDA_STUBS_NVRTC_PATH=$cuda/lib64 CUDA_STUBS_DEBUG=1 \
    "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(nvfatbin|nvrtc|cuda)\]: bound' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
if ! diff "$out/nvfatbin_normal.out" "$out/nvfatbin_stub.out"; then
  echo "FAIL the stub build printed other lines than the normal build"
  status=1
fi
grep -q '^PASS cuModuleLoadData(ptx+cubin' "$out/nvfatbin_stub.out" || status=1
grep -q '^cuda-stubs\[nvfatbin\]: bound ' "$out/nvfatbin_stub.err" \
  || { echo "FAIL the stub bound no nvFatbin"; status=1; }
[ $status = 0 ] && echo "NVFATBIN GPU PROOF: ALL PASS" || echo "NVFATBIN GPU PROOF: SOME FAILED"
exit $status
