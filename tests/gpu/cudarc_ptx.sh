#!/usr/bin/env bash
# Issue 36 on a GPU with a program nobody here wrote: cudarc's own `matmul-kernel` example
# (NVRTC → PTX → `cuModuleLoadData` → launch), built on a CPU machine from cudarc's repository as
# its authors wrote it, with `--no-default-features --features std,driver,nvrtc,cuda-13000,
# dynamic-linking` (cudarc links `-lcuda -lnvrtc`), twice:
#   matmul-kernel-normal  cudarc's default, `dynamic-loading` instead of `dynamic-linking`:
#                         it dlopens NVIDIA's libnvrtc.so and libcuda.so itself
#   matmul-kernel-stubs   the documented cargo line (docs/src/build-systems.md):
#                         RUSTFLAGS="-L native=<prefix>/lib/cuda-stubs-link/abi13
#                         -C link-arg=-Wl,-rpath,<prefix>/lib"
# Run on a machine whose driver is older than CUDA 13.5 (R580, CUDA 13.0), with NVIDIA's NVRTC
# 13.5 (its PTX is `.version 9.5`) and nvJitLink 13.5 from the wheels, carried in pieces:
#
#   tests/gpu/cudarc_ptx.sh PARTS DIR   PARTS: nvjl.part* (xz of libnvJitLink.so.13) and
#                                       nvrtc.part* (xz'd tar of libnvrtc.so.13 and its builtins)
#                                       DIR: bin/matmul-kernel-{normal,stubs}, stubs/libstubs_*.so
set -u
parts=$1 D=$(cd "$2" && pwd)
mkdir -p /tmp/nvrtc135 /tmp/nvjl
cat "$parts"/nvjl.part* | xz -dc > /tmp/nvjl/libnvJitLink.so.13
cat "$parts"/nvrtc.part* | xz -dc | tar -x -C /tmp/nvrtc135
# cudarc's default dynamic-loading opens `libnvrtc.so` first, the name a 13.5 toolkit has (the
# wheel has only libnvrtc.so.13): without it the machine's own NVRTC 13.0 would be taken.
ln -sf libnvrtc.so.13 /tmp/nvrtc135/libnvrtc.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for exe in matmul-kernel-normal matmul-kernel-stubs; do
  echo "== $exe: $(readelf -d "$D/bin/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
done
echo "== linked normally: NVIDIA's NVRTC 13.5 and the driver"
LD_LIBRARY_PATH=/tmp/nvrtc135 "$D/bin/matmul-kernel-normal"; echo "rc=$?"
echo "== through the stubs (NVRTC 13.5 and nvJitLink 13.5 named by the stubs' overrides)"
# The stubs' folder by LD_LIBRARY_PATH: the build's rpath names the CPU machine's prefix.
CUDA_STUBS_DEBUG=1 LD_LIBRARY_PATH="$D/stubs" \
  CUDA_STUBS_NVRTC_PATH=/tmp/nvrtc135/libnvrtc.so.13 \
  CUDA_STUBS_NVJITLINK_PATH=/tmp/nvjl/libnvJitLink.so.13 \
  "$D/bin/matmul-kernel-stubs" 2>&1 | grep -vE 'cuGetProcAddress|no copy already loaded|: try '
echo "rc=${PIPESTATUS[0]}"
