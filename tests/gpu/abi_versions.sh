#!/usr/bin/env bash
# GPU proof of issue "one runtime stub for callers built against CUDA 12.x and 13.x headers":
#
#   tests/gpu/abi_versions.sh STUBS_DIR INC12 INC13 CUDART12 CUDART11
#
#   STUBS_DIR  libstubs_cudart.so and the link-time stub libstubs_cudart_abi12.so
#   INC12      include folder of CUDA 12.9's cuda_runtime_api.h (nvidia-cuda-runtime-cu12 wheel)
#   INC13      include folder of 13.x's (the machine's toolkit)
#   CUDART12/11  real libcudart.so.12 / libcudart.so.11.0 files
#
# Builds tests/gpu/abi_versions.c against each header, linked as the packaging links it
# (cuda-stubs-cudart-12.pc / cuda-stubs-cudart.pc), into one program, and runs it on the
# machine's 13.x runtime, then on 12.9 and 11.8 (CUDA_STUBS_CUDART_PATH).
set -u
stubs=$(cd "$1" && pwd) inc12=$2 inc13=$3
# Absolute: the loader ignores a relative CUDA_STUBS_CUDART_PATH (docs/src/search-order.md), and
# the run would then test the machine's runtime again instead of these.
rt12=$(readlink -f "$4") rt11=$(readlink -f "$5")
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
gcc -shared -fPIC -O1 -I"$inc12" -o "$out/libgpu12.so" "$here/abi_versions.c" -L"$stubs" -lstubs_cudart_abi12 -Wl,-rpath,"$stubs" || exit 1
gcc -shared -fPIC -O1 -I"$inc13" -o "$out/libgpu13.so" "$here/abi_versions.c" -L"$stubs" -lstubs_cudart -Wl,-rpath,"$stubs" || exit 1
gcc -o "$out/abi_versions" "$here/abi_versions_main.c" -L"$out" -lgpu12 -lgpu13 -Wl,-rpath,"$out:$stubs" || exit 1
for lib in libgpu12.so libgpu13.so; do
  echo "$lib imports: $(readelf --dyn-syms -W "$out/$lib" | grep -oE 'cuda(MemAdvise|GetDeviceProperties|StreamGetCaptureInfo)[_v0-9]*(@[A-Z_0-9]+)?' | sort -u | tr '\n' ' ')"
done
status=0
for rt in "" "$rt12" "$rt11"; do
  echo "== runtime: ${rt:-the machine 13.x}"
  env ${rt:+CUDA_STUBS_CUDART_PATH=$rt} CUDA_STUBS_DEBUG=1 "$out/abi_versions" 2> "$out/log"; rc=$?
  [ $rc = 0 ] || { status=1; echo "rc=$rc"; tail -3 "$out/log"; }
  grep -m1 "bound" "$out/log"
done
rm -rf "$out"
exit $status
