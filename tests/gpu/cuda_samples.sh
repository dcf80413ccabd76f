#!/usr/bin/env bash
# GPU proof that real programs nobody here wrote, built ONCE, run on every CUDA major: NVIDIA's
# cuda-samples (github.com/NVIDIA/cuda-samples, fetched by you, never copied into this repository),
# configured by their own CMake files with nvcc 13, CUDA::cudart / CUDA::cuda_driver / CUDA::nvrtc
# and nvcc's runtime pointed at the stubs, then the same binaries run four ways:
#   normal  the same sources built a second time, linked normally to NVIDIA's 13.x libraries
#           (build-normal: `build` with NORMAL=1)
#   s13     the stubs, finding the machine's 13.x runtime and NVRTC
#   s12     the stubs on NVIDIA's 12.9 runtime and NVRTC (wheel files), via CUDA_STUBS_*_PATH
#   s11     the same on 11.8
# A few samples are also built with `--default-stream per-thread` (nvcc's __cudaLaunchKernel_ptsz).
#
#   tests/gpu/cuda_samples.sh build SAMPLES STUBS WORK          (NORMAL=1: the normal build)
#   tests/gpu/cuda_samples.sh run   SAMPLES STUBS WORK CUDA12 CUDA11 OUT VARIANT...
#
#   SAMPLES  a cuda-samples checkout (or a .tar.xz of one, top folder cuda-samples/)
#   STUBS    folder with release libstubs_cudart.so, libstubs_cuda.so, libstubs_nvrtc.so
#   WORK     scratch folder (the build goes to WORK/cuda-samples/build)
#   CUDA12/CUDA11  folders with libcudart.so.12 + libnvrtc.so.12 (+ builtins) / .11.0 + .11.2
#   OUT      where result_VARIANT.json (tests/gpu/run_samples.py) and logs go
# Results of a run on an H100 and the commands: tests/gpu/RESULTS.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
stage=$1 samples=$2 stubs=$3 W=$4
S=$W/stubs
mkdir -p "$W" "$S/link"
# build_ptsz OUT [LINK FLAGS...]: a few samples with nvcc's per-thread default stream
# (__cudaLaunchKernel_ptsz), from the cuda-samples folder.
build_ptsz() {
  local out=$1 s n
  shift
  mkdir -p "$out"
  for s in Samples/0_Introduction/vectorAdd/vectorAdd.cu Samples/0_Introduction/asyncAPI/asyncAPI.cu \
           Samples/0_Introduction/simpleMultiCopy/simpleMultiCopy.cu Samples/6_Performance/transpose/transpose.cu; do
    n=$(basename "$s" .cu)
    nvcc -O2 -arch=sm_90 --default-stream per-thread -ICommon -o "$out/${n}_ptsz" "$s" -cudart shared "$@" \
      || echo "ptsz $n build failed"
  done
}
# sources: WORK/cuda-samples (once, for both builds) with one architecture (the machine's),
# which keeps each build to a minute; then cd there.
sources() {
  mkdir -p "$W/logs"
  if [ ! -d "$W/cuda-samples" ]; then
    if [ -f "$samples" ]; then tar xJf "$samples" -C "$W"; else cp -r "$samples" "$W/cuda-samples"; fi
    grep -rl 'set(CMAKE_CUDA_ARCHITECTURES' --include=CMakeLists.txt "$W/cuda-samples" \
      | xargs sed -i 's/set(CMAKE_CUDA_ARCHITECTURES [^)]*)/set(CMAKE_CUDA_ARCHITECTURES 90)/'
  fi
  cd "$W/cuda-samples" || exit 1
}
if [ "$stage" = build ] && [ "${NORMAL:-0}" = 1 ]; then
  # The comparison: the same sources, CMake's own FindCUDAToolkit, NVIDIA's libraries.
  sources
  cmake -S . -B build-normal -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared \
    > "$W/logs/configure-normal.log" 2>&1
  time timeout 420 ninja -C build-normal -k 0 -j"$(nproc)" > "$W/logs/build-normal.log" 2>&1
  echo "normal build rc=$? ($(grep -c FAILED "$W/logs/build-normal.log") failed targets)"
  build_ptsz "$W/ptsz-normal"
  exit 0
fi
if [ "$stage" = build ]; then
  if [ -f "$W/built" ]; then echo "already built"; exit 0; fi
  out=$W/logs
  nvidia-smi -L; nvcc --version | tail -1; cmake --version | head -1
  cp "$stubs"/libstubs_*.so "$S/"
  # -lcudart (nvcc's own link line) must find the stub too.
  for l in cudart cuda nvrtc; do ln -sf "$S/libstubs_$l.so" "$S/link/lib$l.so"; done
  sources
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared \
    -DCUDA_cudart_LIBRARY="$S/libstubs_cudart.so" -DCUDA_cudart_static_LIBRARY="$S/libstubs_cudart.so" \
    -DCUDA_cuda_driver_LIBRARY="$S/libstubs_cuda.so" -DCUDA_nvrtc_LIBRARY="$S/libstubs_nvrtc.so" \
    "-DCMAKE_EXE_LINKER_FLAGS=-L$S/link" "-DCMAKE_SHARED_LINKER_FLAGS=-L$S/link" > "$out/configure.log" 2>&1
  echo "configure rc=$?"
  time timeout 420 ninja -C build -k 0 -j"$(nproc)" > "$out/build.log" 2>&1
  echo "build rc=$? ($(grep -c FAILED "$out/build.log") failed targets)"
  build_ptsz "$W/ptsz" -L"$S/link" -Xlinker -rpath="$S"
  # What the binaries need: the stubs, never NVIDIA's runtime, driver or NVRTC.
  find build/Samples "$W/ptsz" -type f -executable ! -name '*.so' -exec readelf -d {} \; 2>/dev/null \
    | grep -oE 'NEEDED.*\[[^]]*\]' | sort | uniq -c | sort -rn > "$out/needed.txt"
  touch "$W/built"
  exit 0
fi
cuda12=$5 cuda11=$6 out=$7
shift 7
mkdir -p "$out"
for v in "$@"; do
  case $v in
    normal) env=("CUDA_STUBS_UNUSED=1") ;;
    s13) env=("LD_LIBRARY_PATH=$S") ;;
    s12) env=("LD_LIBRARY_PATH=$S" "CUDA_STUBS_CUDART_PATH=$cuda12/libcudart.so.12" "CUDA_STUBS_NVRTC_PATH=$cuda12/libnvrtc.so.12") ;;
    s11) env=("LD_LIBRARY_PATH=$S" "CUDA_STUBS_CUDART_PATH=$cuda11/libcudart.so.11.0" "CUDA_STUBS_NVRTC_PATH=$cuda11/libnvrtc.so.11.2") ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
  esac
  build=build ptsz=ptsz
  [ "$v" = normal ] && build=build-normal ptsz=ptsz-normal
  (cd "$W/cuda-samples/$build/Samples/1_Utilities/deviceQuery" && env "${env[@]}" CUDA_STUBS_DEBUG=1 ./deviceQuery 2>&1 \
    | grep -E 'bound|Runtime Version|Result' | head -5) > "$out/bind_$v.txt"
  env "${env[@]}" python3 "$here/run_samples.py" "$W/cuda-samples/$build" "$W/$ptsz" "$out/result_$v.json" "$v"
done
