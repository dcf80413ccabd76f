#!/usr/bin/env bash
# GPU proof of the cuSPARSELt stub: tests/gpu/cusparselt_matmul.c (a 2:4 structured-sparse FP16
# matrix product: cusparseLtSpMMAPrune, cusparseLtSpMMAPruneCheck, cusparseLtSpMMACompress,
# cusparseLtMatmul, checked on the host) built against NVIDIA's cuSPARSELt and the machine's
# CUDA headers, linked to the stubs and, for comparison, normally; both run on the machine's
# CUDA and the given cuSPARSELt. The two runs must print the same result lines (the same
# checksum of D: the same library on the same GPU).
#
#   tests/gpu/cusparselt.sh PREFIX OUT [CUSPARSELT_DIR]
#
#   PREFIX          `scripts/install.sh --prefix PREFIX` (libstubs_cusparselt.so, libstubs_cudart.so)
#   OUT             a folder for the programs
#   CUSPARSELT_DIR  NVIDIA's cuSPARSELt of the machine's CUDA major, with include/cusparseLt.h and
#                   lib/libcusparseLt.so.0: a wheel's folder. By default PyTorch's, from
#                   /opt/torch/.venv's site-packages (or $TORCH_PYTHON's): nvidia/cusparselt
#                   (nvidia-cusparselt-cu13 0.8.x, as PyTorch's cu13 builds install it), else
#                   nvidia/cu13 (-cu13 0.9 and later put it there)
#
# The stub build binds cuSPARSELt through CUDA_STUBS_CUSPARSELT_PATH and must report the CUDA
# release its device code was compiled for (PTX ISA 9.x: CUDA 13), the machine's runtime's
# major (one release per process); the normal build ignores the variable. cuSPARSELt 0.8.0's cusparseLt.h is C++ only (<cstddef>): the
# program is compiled as C where the header allows, else as C++ (the same for both builds).
set -u
if [ $# -lt 2 ]; then
  sed -n '2,22p' "$0" >&2
  exit 2
fi
P=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
lt=${3:-}
if [ -z "$lt" ]; then
  py=${TORCH_PYTHON:-/opt/torch/.venv/bin/python}
  site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 2
  for d in "$site/nvidia/cusparselt" "$site/nvidia/cu13"; do
    [ -f "$d/lib/libcusparseLt.so.0" ] && { lt=$d; break; }
  done
fi
mkdir -p "$out"
[ -n "$lt" ] && [ -f "$lt/include/cusparseLt.h" ] && [ -f "$lt/lib/libcusparseLt.so.0" ] \
  || { echo "no include/cusparseLt.h and lib/libcusparseLt.so.0 under ${lt:-site-packages}" >&2; exit 2; }
lib=$lt/lib/libcusparseLt.so.0
version=$(grep -oE 'CUSPARSELT_VER_(MAJOR|MINOR|PATCH) +[0-9]+' "$lt/include/cusparseLt.h" | awk '{print $2}' | paste -sd.)
echo "== cuSPARSELt $version: $lib (built by $(grep -aom1 'Cuda compilation tools, release [0-9.]*' "$lib"))"
# CUDA 13's toolkit keeps CCCL (<nv/target>, which cuda_fp16.h includes in C++) in include/cccl.
flags=(-O1 -I"$lt/include" -I"$cuda/include" -I"$cuda/include/cccl")
if gcc -std=c11 -fsyntax-only "${flags[@]}" "$here/cusparselt_matmul.c" 2>/dev/null; then
  cc=(gcc -std=c11) mode=C
else
  cc=(g++ -x c++ -std=c++14) mode=C++
fi
echo "== compiled as $mode"
"${cc[@]}" "${flags[@]}" -o "$out/cusparselt_normal" "$here/cusparselt_matmul.c" \
  -L"$lt/lib" -l:libcusparseLt.so.0 -L"$cuda/lib64" -lcudart \
  -Wl,-rpath,"$lt/lib" -Wl,-rpath,"$cuda/lib64" || exit 1
"${cc[@]}" "${flags[@]}" -o "$out/cusparselt_stub" "$here/cusparselt_matmul.c" \
  -L"$P/lib" -lstubs_cusparselt -lstubs_cudart -Wl,-rpath,"$P/lib" || exit 1
status=0
for exe in cusparselt_normal cusparselt_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_CUSPARSELT_PATH=$lib CUDA_STUBS_DEBUG=1 "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(cusparselt|cudart)\]: (bound|cusparseLtGetProperty|the process has|try .*rejected)' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
if ! diff <(grep -E 'PASS|FAIL|checksum|version|compute type|compressed size' "$out/cusparselt_normal.out") \
          <(grep -E 'PASS|FAIL|checksum|version|compute type|compressed size' "$out/cusparselt_stub.out"); then
  echo "FAIL the stub build printed other results than the normal build"
  status=1
fi
grep -q '^cuda-stubs\[cusparselt\]: bound ' "$out/cusparselt_stub.err" || { echo "FAIL the stub bound no cuSPARSELt"; status=1; }
# The runtime's major (`runtime 13000, …` of the normal build) is the release the stub must read.
major=$(sed -n 's/^runtime \([0-9]*\)[0-9][0-9][0-9],.*/\1/p' "$out/cusparselt_normal.out")
grep -q "^cuda-stubs\[cusparselt\]: cusparseLtGetProperty .*: PTX ISA .*: CUDA ${major:-?}\$" "$out/cusparselt_stub.err" \
  || { echo "FAIL the stub did not read CUDA ${major:-?} (the runtime's major) from the device code"; status=1; }
[ $status = 0 ] && echo "CUSPARSELT GPU PROOF: ALL PASS" || echo "CUSPARSELT GPU PROOF: SOME FAILED"
exit $status
