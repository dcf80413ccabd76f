#!/usr/bin/env bash
# GPU proof of the cuTENSOR stub: tests/gpu/cutensor_contraction.c (matrix products through
# cutensorContract with each compute descriptor, CUTENSOR_COMPUTE_DESC_32F / TF32 / 3XTF32 /
# 16BF / 16F / 64F, and a reduction, each checked against the host) built against NVIDIA's
# cutensor.h and the machine's CUDA headers, linked to the stubs and, for comparison, normally;
# both run on the machine's CUDA and the given cuTENSOR. The two runs must print the same
# result lines, all PASS.
#
#   tests/gpu/cutensor.sh PREFIX OUT [CUTENSOR_DIR]
#
#   PREFIX        `scripts/install.sh --prefix PREFIX` (libstubs_cutensor.so, libstubs_cudart.so)
#   OUT           a folder for the programs
#   CUTENSOR_DIR  NVIDIA's cuTENSOR 2 of the machine's CUDA major: a folder holding
#                 libcutensor.so.2 (itself, or in lib/) and cutensor.h with cutensor/types.h
#                 (in include/ beside lib/, or in include/ inside it): the wheel's `cutensor`
#                 folder (`pip install cutensor-cu13`: site-packages/cutensor), or a copy of its
#                 lib/libcutensor.so.2 and include/ (CuPy and PyTorch do not bring it); by
#                 default the `cutensor` package `python3` (then /opt/torch/.venv's) imports
#
# cuTENSOR links the runtime statically and needs the major's libcublasLt.so.<major>
# (DT_NEEDED; its RUNPATH looks in its own folder and ../../nvidia/cu13/lib): the machine's
# $CUDA_HOME/lib64 is put on LD_LIBRARY_PATH for both runs. The stub build binds cuTENSOR through
# CUDA_STUBS_CUTENSOR_PATH and must report the runtime it was built with
# (cutensorGetCudartVersion: 13040 for cutensor-cu13 2.8.1), of the machine runtime's major.
#
# To a machine without network: cutensor-cu13 2.8.1's lib/libcutensor.so.2 is 323 MB (185 MB as
# `xz -6`, most of it GPU code for every architecture), include/ 130 kB; where a transfer is
# smaller, split the .xz (`split -b 60M`) and join the parts there (`cat part* | xz -d`).
set -u
if [ $# -lt 2 ]; then
  sed -n '2,28p' "$0" >&2
  exit 2
fi
P=$1 out=$2 dir=${3:-}
if [ -z "$dir" ]; then
  for py in python3 /opt/torch/.venv/bin/python; do
    dir=$("$py" -c 'import cutensor; print(list(cutensor.__path__)[0])' 2>/dev/null) && break
  done
fi
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
lib=
for d in "$dir/lib" "$dir"; do
  [ -f "$d/libcutensor.so.2" ] && { lib=$(cd "$d" && pwd); break; }
done
inc=
for d in "$dir/include" "$dir/../include" "$lib/../include"; do
  [ -f "$d/cutensor.h" ] && [ -f "$d/cutensor/types.h" ] && { inc=$(cd "$d" && pwd); break; }
done
[ -n "$lib" ] && [ -n "$inc" ] \
  || { echo "no libcutensor.so.2 and include/cutensor.h (+ cutensor/types.h) under $dir" >&2; exit 2; }
export LD_LIBRARY_PATH=$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "== cuTENSOR: $lib/libcutensor.so.2 ($(du -m "$lib/libcutensor.so.2" | cut -f1) MB), headers $inc"
echo "== CUDA: $cuda ($(readlink -f "$cuda/lib64/libcudart.so" 2>/dev/null))"
gcc -std=c11 -O1 -o "$out/cutensor_normal" "$here/cutensor_contraction.c" -I"$inc" -I"$cuda/include" \
  -L"$lib" -l:libcutensor.so.2 -L"$cuda/lib64" -lcudart \
  -Wl,-rpath,"$lib" -Wl,-rpath,"$cuda/lib64" -Wl,-rpath-link,"$cuda/lib64" || exit 1
# Without PIC, as in tests/cutensor.rs: the executable copy-relocates the stub's
# CUTENSOR_COMPUTE_DESC_* stand-ins.
gcc -std=c11 -O1 -fno-pic -no-pie -o "$out/cutensor_stub" "$here/cutensor_contraction.c" \
  -I"$inc" -I"$cuda/include" -L"$P/lib" -lstubs_cutensor -lstubs_cudart -Wl,-rpath,"$P/lib" \
  || exit 1
status=0
echo "== cutensor_stub copy relocations: $(readelf -rW "$out/cutensor_stub" | grep -c 'COPY.*CUTENSOR_COMPUTE_DESC_')"
for exe in cutensor_normal cutensor_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_CUTENSOR_PATH=$lib/libcutensor.so.2 CUDA_STUBS_DEBUG=1 "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(cutensor|cudart)\]: (bound|CUTENSOR_COMPUTE_DESC|the process has)' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
if ! diff <(grep -E 'PASS|FAIL|cutensorGetVersion' "$out/cutensor_normal.out") \
          <(grep -E 'PASS|FAIL|cutensorGetVersion' "$out/cutensor_stub.out"); then
  echo "FAIL the stub build printed other results than the normal build"
  status=1
fi
grep -q '^cuda-stubs\[cutensor\]: bound ' "$out/cutensor_stub.err" || { echo "FAIL the stub bound no cuTENSOR"; status=1; }
grep -q '^cuda-stubs\[cutensor\]: CUTENSOR_COMPUTE_DESC_32F: data object found' "$out/cutensor_stub.err" \
  || { echo "FAIL the stub translated no CUTENSOR_COMPUTE_DESC_32F"; status=1; }
[ $status = 0 ] && echo "cuTENSOR GPU PROOF: ALL PASS" || echo "cuTENSOR GPU PROOF: SOME FAILED"
exit $status
