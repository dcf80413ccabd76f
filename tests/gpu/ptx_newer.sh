#!/usr/bin/env bash
# GPU proof of issue 36 item 2 (PTX newer than the driver) on a machine whose driver is older
# than CUDA 13.5 (an H200 with R580, CUDA 13.0). Inputs, made on a CPU machine by NVIDIA's
# CUDA 13.5 wheels and carried in DIR:
#   saxpy95.ptx     NVRTC 13.5, -arch=compute_90: `.version 9.5`
#   saxpy.cubin     nvJitLink 13.5 of that PTX for sm_90 (the "CUBIN build")
#   ptx95.fatbin    nvFatbin of that PTX alone
#   saxpy90.ptx     the same PTX at `.version 9.0`, which the driver reads (the JIT benchmark)
#   nvjl.xz         NVIDIA's libnvJitLink.so.13 of 13.5, xz-compressed (33 MB: with the
#                   repository's 47 MB it travels in three pieces, `split -b 11200000`, the
#                   first two in earlier calls to /tmp/nvjl-parts; NVJL_PARTS names that folder)
#   bin/            libstubs_cuda.so, libstubs_cudart.so (release)
#   rt/             NVIDIA's libcudart.so.13 of 13.5
#   saxpy_runtime_{normal,stub}   tests/gpu/saxpy_runtime.cu by nvcc 13.5,
#                   -gencode arch=compute_90,code=compute_90, -cudart=shared / -lstubs_cudart
#
#   tests/gpu/ptx_newer.sh DIR OUT
set -u
D=$(cd "$1" && pwd) out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out" /tmp/nvjl
if [ -n "${NVJL_PARTS:-}" ]; then
  cat "$NVJL_PARTS"/nvjl.part* "$D"/nvjl.part* | xz -dc > /tmp/nvjl/libnvJitLink.so.13
else
  xz -dc "$D/nvjl.xz" > /tmp/nvjl/libnvJitLink.so.13
fi
export CUDA_STUBS_NVJITLINK_PATH=/tmp/nvjl/libnvJitLink.so.13
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gcc -std=c11 -O2 -o "$out/ptx_newer_normal" "$here/ptx_newer.c" -I"$cuda/include" -lcuda
gcc -std=c11 -O2 -o "$out/ptx_newer_stub" "$here/ptx_newer.c" -I"$cuda/include" \
  -L"$D/bin" -lstubs_cuda -Wl,-rpath,"$D/bin"
for exe in ptx_newer_normal ptx_newer_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
done
head -c 400 "$D/saxpy95.ptx" | grep -E '^\.(version|target)'
echo "== the CUBIN build, linked normally"
"$out/ptx_newer_normal" "$D/saxpy.cubin" data
for mode in data data-ex fatbin file library library-file link; do
  input=$D/saxpy95.ptx
  [ "$mode" = fatbin ] && input=$D/ptx95.fatbin
  echo "== $mode, PTX 9.5: linked normally, then through the stubs"
  "$out/ptx_newer_normal" "$input" "$mode"
  CUDA_STUBS_DEBUG=1 "$out/ptx_newer_stub" "$input" "$mode" 2>&1 | grep -E '^[a-z-]+:|PTX|nvJitLink'
done
echo "== a program nobody here wrote: CuPy's RawModule(path=PTX 9.5), as installed, then with LD_PRELOAD of the driver stub"
python3 "$here/cupy_ptx.py" "$D/saxpy95.ptx"
cupy_driver=$(python3 -c 'import cupy_backends.cuda.api.driver as d; print(d.__file__)')
echo "-- $(basename "$cupy_driver"): $(readelf -d "$cupy_driver" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
CUDA_STUBS_DEBUG=1 LD_PRELOAD="$D/bin/libstubs_cuda.so" python3 "$here/cupy_ptx.py" "$D/saxpy95.ptx" 2>&1 |
  grep -E '^cupy|PTX|bound'
echo "== without nvJitLink: the driver's own 222 and what would fix it"
CUDA_STUBS_NVJITLINK_PATH=/nonexistent/libnvJitLink.so.13 CUDA_STUBS_DEBUG=1 \
  "$out/ptx_newer_stub" "$D/saxpy95.ptx" data 2>&1 | grep -E '^data:|PTX 9.5 is newer'
echo "== nvcc 13.5, -gencode arch=compute_90,code=compute_90 (PTX only)"
for exe in saxpy_runtime_normal saxpy_runtime_stub; do
  echo "-- $exe: $(readelf -d "$D/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_DEBUG=1 CUDA_STUBS_CUDART_PATH="$D/rt/libcudart.so.13" LD_LIBRARY_PATH="$D/rt" \
    "$D/$exe" 2>&1 | grep -E '^runtime:|PTX|bound'
done
echo "== module-load cost (cuModuleLoadData + cuModuleUnload, microseconds)"
echo "-- CUBIN, no JIT: normal, stub (x3 interleaved)"
for i in 1 2 3; do
  "$out/ptx_newer_normal" "$D/saxpy.cubin" bench 2000
  "$out/ptx_newer_stub" "$D/saxpy.cubin" bench 2000
done
echo "-- PTX: the driver's own JIT of PTX 9.0 (first: its disk cache off) vs the stub's nvJitLink of PTX 9.5"
for i in 1 2 3; do
  CUDA_CACHE_DISABLE=1 "$out/ptx_newer_normal" "$D/saxpy90.ptx" bench 20
  "$out/ptx_newer_normal" "$D/saxpy90.ptx" bench 200
  "$out/ptx_newer_stub" "$D/saxpy95.ptx" bench 200
done
