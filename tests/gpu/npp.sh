#!/usr/bin/env bash
# GPU proof of the NPP stubs: tests/gpu/npp_resize.c (an NPP resize, nppiResize_8u_C1R_Ctx with
# cubic and linear interpolation, then nppiAddC_8u_C1IRSfs_Ctx, in NPP's own pitched memory)
# built against the machine's CUDA headers, linked to the stubs (libstubs_nppig, _nppial,
# _nppisu, _nppc, _cudart) and, for comparison, normally to NVIDIA's NPP; both run on the
# machine's CUDA runtime and the same NPP. The two runs must print the same result lines and
# write the same image bytes.
#
#   tests/gpu/npp.sh PREFIX OUT [NPP_LIB ...]
#
#   PREFIX   `scripts/install.sh --prefix PREFIX` (the five stubs)
#   OUT      a folder for the programs and their output
#   NPP_LIB  a folder holding NVIDIA's libnppc.so.<major>, libnppig, libnppial, libnppisu of the
#            machine's CUDA major: by default the toolkit's, $CUDA_HOME/lib64 (/usr/local/cuda:
#            CUDA 13.0), then, where it has NPP, the cu13 wheels' folder of PyTorch's
#            environment (/opt/torch/.venv: site-packages/nvidia/cu13/lib). Each is one leg.
#
# The stub build finds each NPP library through its CUDA_STUBS_NPP*_PATH (the leg's folder) and
# the runtime through CUDA_STUBS_CUDART_PATH ($CUDA_HOME/lib64); it must bind all four from
# that folder, with the runtime's major (one release per process).
set -u
if [ $# -lt 2 ]; then
  sed -n '2,19p' "$0" >&2
  exit 2
fi
P=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
legs=("$@")
if [ ${#legs[@]} = 0 ]; then
  legs=("$cuda/lib64")
  for torch in /opt/torch/.venv/lib/python3*/site-packages/nvidia/cu13/lib; do
    [ -e "$torch/libnppc.so.13" ] && legs+=("$torch")
  done
fi
mkdir -p "$out"
status=0
n=0
for lib in "${legs[@]}"; do
  n=$((n + 1))
  core=$(cd "$lib" 2>/dev/null && ls libnppc.so.[0-9]* 2>/dev/null | grep -E '^libnppc\.so\.[0-9]+$' | head -1)
  if [ -z "$core" ]; then
    echo "FAIL leg $n: no libnppc.so.<major> in $lib"
    status=1
    continue
  fi
  major=${core##*.}
  # The headers: the leg's sibling include/ where it has npp.h (a wheel's), else the toolkit's.
  inc=$cuda/include
  [ -f "$lib/../include/npp.h" ] && inc="$lib/../include -I$cuda/include"
  echo "== leg $n: NPP $lib (major $major), runtime $cuda/lib64, headers $inc"
  libs=""
  for l in nppig nppial nppisu nppc; do libs="$libs -l:lib$l.so.$major"; done
  # shellcheck disable=SC2086
  gcc -std=c11 -O1 -o "$out/npp_normal_$n" "$here/npp_resize.c" -I$inc \
    -L"$lib" $libs -L"$cuda/lib64" -lcudart -Wl,-rpath,"$lib" -Wl,-rpath,"$cuda/lib64" || exit 1
  # shellcheck disable=SC2086
  gcc -std=c11 -O1 -o "$out/npp_stub_$n" "$here/npp_resize.c" -I$inc \
    -L"$P/lib" -lstubs_nppig -lstubs_nppial -lstubs_nppisu -lstubs_nppc -lstubs_cudart \
    -Wl,-rpath,"$P/lib" || exit 1
  for exe in "npp_normal_$n" "npp_stub_$n"; do
    echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
    CUDA_STUBS_NPPC_PATH=$lib CUDA_STUBS_NPPIG_PATH=$lib CUDA_STUBS_NPPIAL_PATH=$lib \
      CUDA_STUBS_NPPISU_PATH=$lib CUDA_STUBS_CUDART_PATH=$cuda/lib64 CUDA_STUBS_DEBUG=1 \
      "$out/$exe" "$out/$exe.raw" >"$out/$exe.out" 2>"$out/$exe.err"
    rc=$?
    cat "$out/$exe.out"
    grep -E '^cuda-stubs\[(npp[a-z]*|cudart)\]: (bound|the process has)' "$out/$exe.err"
    echo "rc=$rc"
    [ $rc = 0 ] || status=1
  done
  if ! diff "$out/npp_normal_$n.out" "$out/npp_stub_$n.out"; then
    echo "FAIL leg $n: the stub build printed other results than the normal build"
    status=1
  elif ! cmp "$out/npp_normal_$n.raw" "$out/npp_stub_$n.raw"; then
    echo "FAIL leg $n: the stub build wrote other image bytes than the normal build"
    status=1
  else
    echo "PASS leg $n: same lines and the same $(wc -c <"$out/npp_stub_$n.raw") image bytes"
  fi
  # Each stub bound its library of the leg's major (by the leg's folder, or the copy already
  # loaded that an image library's DT_NEEDED brought in).
  for l in nppc nppig nppial nppisu; do
    grep -qE "^cuda-stubs\[$l\]: bound .*/lib$l\.so\.$major .*\[(environment override|already loaded)" \
      "$out/npp_stub_$n.err" || { echo "FAIL leg $n: the $l stub bound no lib$l.so.$major"; status=1; }
  done
  grep -q "^cuda-stubs\[cudart\]: bound " "$out/npp_stub_$n.err" \
    || { echo "FAIL leg $n: the runtime stub bound no runtime"; status=1; }
done
[ $status = 0 ] && echo "NPP GPU PROOF: ALL PASS" || echo "NPP GPU PROOF: SOME FAILED"
exit $status
