#!/usr/bin/env bash
# GPU proof of the CUPTI stub: tests/gpu/cupti_activity.cu (two kernels launched five times by
# the runtime with CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL enabled through the program's own
# buffer callbacks, and a runtime-API subscriber with the program's user data) built by nvcc
# against the machine's CUDA headers and the given CUPTI's, linked to the stubs and, for
# comparison, normally; both run on the machine's runtime and driver and the given CUPTI. The
# two runs must print the same lines: the same kernel names and record counts, the same launch
# callbacks, CUPTI's version and status text.
#
#   tests/gpu/cupti.sh PREFIX OUT [CUPTI_DIR]
#
#   PREFIX     `scripts/install.sh --prefix PREFIX` (libstubs_cupti.so, libstubs_cudart.so)
#   OUT        a folder for the programs
#   CUPTI_DIR  NVIDIA's CUPTI of the machine's CUDA major: a folder with include/cupti.h and
#              lib/ or lib64/libcupti.so.<major>. By default PyTorch cu13's
#              (/opt/torch/.venv's site-packages nvidia/cu13: nvidia-cuda-cupti's libcupti.so.13),
#              else the toolkit's ($CUDA_HOME/extras/CUPTI, /usr/local/cuda by default)
#
# The runtime is the toolkit's libcudart.so.<major> ($CUDA_HOME/lib64) for both builds; the stub
# build binds it and CUPTI through CUDA_STUBS_CUDART_PATH and CUDA_STUBS_CUPTI_PATH, and must
# link neither NVIDIA library itself.
set -u
if [ $# -lt 2 ]; then
  sed -n '2,21p' "$0" >&2
  exit 2
fi
P=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
cupti=${3:-}
if [ -z "$cupti" ]; then
  for d in /opt/torch/.venv/lib/python3*/site-packages/nvidia/cu13 "$cuda/extras/CUPTI"; do
    [ -f "$d/include/cupti.h" ] && { cupti=$d; break; }
  done
fi
[ -n "$cupti" ] && [ -f "$cupti/include/cupti.h" ] || { echo "no include/cupti.h under '$cupti'" >&2; exit 2; }
lib=$(ls "$cupti"/lib/libcupti.so.1[0-9]* "$cupti"/lib64/libcupti.so.1[0-9]* 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "no libcupti.so.<major> under $cupti/lib or $cupti/lib64" >&2; exit 2; }
runtime=$(ls "$cuda"/lib64/libcudart.so.1[0-9] 2>/dev/null | head -1)
[ -n "$runtime" ] || { echo "no libcudart.so.<major> under $cuda/lib64" >&2; exit 2; }
export PATH=$cuda/bin:$PATH
mkdir -p "$out"
echo "== CUPTI: $lib ($(readelf -d "$lib" | grep -o 'soname: \[[^]]*\]'))"
echo "== runtime: $runtime; $(nvcc --version | tail -1)"
nvidia-smi -L 2>/dev/null | head -4
# The machine's CUDA headers first: CUPTI's include folder (a wheel's nvidia/cu13/include) may
# hold another 13.x runtime's headers too. sm_90 code for H100/H200, PTX for the others.
arch="-gencode arch=compute_90,code=sm_90 -gencode arch=compute_75,code=compute_75"
nvcc -O2 $arch -o "$out/cupti_normal" "$here/cupti_activity.cu" -I"$cuda/include" \
  -I"$cupti/include" -cudart shared -L"$(dirname "$lib")" -l:"$(basename "$lib")" \
  -Xlinker -rpath="$(dirname "$lib")" -Xlinker -rpath="$cuda/lib64" || exit 1
nvcc -O2 $arch -o "$out/cupti_stub" "$here/cupti_activity.cu" -I"$cuda/include" \
  -I"$cupti/include" -cudart none -L"$P/lib" -lstubs_cupti -lstubs_cudart \
  -Xlinker -rpath="$P/lib" || exit 1
status=0
for exe in cupti_normal cupti_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_CUPTI_PATH=$lib CUDA_STUBS_CUDART_PATH=$runtime CUDA_STUBS_DEBUG=1 \
    "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(cupti|cudart)\]: (bound|cuptiGetVersion|the process has)' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
if ! diff "$out/cupti_normal.out" "$out/cupti_stub.out"; then
  echo "FAIL the stub build printed other lines than the normal build"
  status=1
fi
if readelf -d "$out/cupti_stub" | grep -qE 'NEEDED.*\[lib(cupti|cudart)\.'; then
  echo "FAIL the stub build links NVIDIA's libcupti or libcudart itself"
  status=1
fi
grep -q "^cuda-stubs\[cupti\]: bound $lib " "$out/cupti_stub.err" \
  || { echo "FAIL the stub bound no CUPTI, or another than $lib"; status=1; }
[ $status = 0 ] && echo "CUPTI GPU PROOF: ALL PASS" || echo "CUPTI GPU PROOF: SOME FAILED"
exit $status
