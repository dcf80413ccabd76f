#!/usr/bin/env bash
# GPU proof of the nvJPEG stub: tests/gpu/nvjpeg_decode.c (a 256x128 JPEG of flat colour blocks,
# tests/c/tiny_jpeg.h, decoded to planar RGB by nvjpegDecode with nvJPEG's own allocators and
# with the program's, checked on the host against the JFIF colours) built against the machine's
# CUDA headers, linked to the stubs and, for comparison, normally; both run on the machine's
# CUDA and its nvJPEG. The two runs must print the same lines: the same pixels (hash) and
# results.
#
#   tests/gpu/nvjpeg.sh PREFIX OUT [CUDA]
#
#   PREFIX  `scripts/install.sh --prefix PREFIX` (libstubs_nvjpeg.so, libstubs_cudart.so)
#   OUT     a folder for the programs
#   CUDA    the toolkit (default $CUDA_HOME, else /usr/local/cuda): include/nvjpeg.h,
#           lib64/libnvjpeg.so.<major>, lib64/libcudart.so.<major>; the CUDA 13.0 toolkit on
#           the GPU machine
#
# The stub build finds nvJPEG and the runtime in $CUDA/lib64 through CUDA_STUBS_NVJPEG_PATH and
# CUDA_STUBS_CUDART_PATH, and must bind an nvJPEG of the runtime's major (one release per
# process).
set -u
if [ $# -lt 2 ]; then
  sed -n '2,19p' "$0" >&2
  exit 2
fi
P=$1 out=$2
cuda=${3:-${CUDA_HOME:-/usr/local/cuda}}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
[ -f "$cuda/include/nvjpeg.h" ] || { echo "no include/nvjpeg.h under $cuda" >&2; exit 2; }
echo "== nvJPEG: $(ls "$cuda"/lib64/libnvjpeg.so.* | tr '\n' ' ')"
gcc -std=c11 -O1 -o "$out/nvjpeg_normal" "$here/nvjpeg_decode.c" -I"$cuda/include" \
  -L"$cuda/lib64" -lnvjpeg -lcudart -Wl,-rpath,"$cuda/lib64" -lm || exit 1
gcc -std=c11 -O1 -o "$out/nvjpeg_stub" "$here/nvjpeg_decode.c" -I"$cuda/include" \
  -L"$P/lib" -lstubs_nvjpeg -lstubs_cudart -Wl,-rpath,"$P/lib" -lm || exit 1
status=0
for exe in nvjpeg_normal nvjpeg_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_NVJPEG_PATH=$cuda/lib64 CUDA_STUBS_CUDART_PATH=$cuda/lib64 CUDA_STUBS_DEBUG=1 \
    "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(nvjpeg|cudart)\]: (bound|the process has)' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
if ! diff "$out/nvjpeg_normal.out" "$out/nvjpeg_stub.out"; then
  echo "FAIL the stub build printed other lines than the normal build"
  status=1
fi
grep -q '^PASS nvjpegCreateSimple' "$out/nvjpeg_stub.out" || status=1
grep -q '^cuda-stubs\[nvjpeg\]: bound ' "$out/nvjpeg_stub.err" \
  || { echo "FAIL the stub bound no nvJPEG"; status=1; }
[ $status = 0 ] && echo "NVJPEG GPU PROOF: ALL PASS" || echo "NVJPEG GPU PROOF: SOME FAILED"
exit $status
