#!/usr/bin/env bash
# GPU proof that real programs nobody here wrote, built ONCE, run on every CUDA major: NVIDIA's
# cuda-samples (github.com/NVIDIA/cuda-samples, fetched by you, never copied into this repository),
# configured by their own top-level CMake with nvcc 13 and CMake's defaults, three ways:
#   normal  unedited, linked normally to NVIDIA's 13.x libraries (CMake's static cudart)
#   lines   the README's two lines added after the top-level find_package(CUDAToolkit REQUIRED),
#           `-Dcuda-stubs_DIR=<prefix>/lib/cmake/cuda-stubs`, nothing else
#   zero    unedited, `-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<prefix>/lib/cmake/cuda-stubs/
#           cuda-stubs-switch.cmake` (the zero-line switch)
# then the binaries run: normal on the machine's 13.x; lines on 13.x (s13), on NVIDIA's 12.9 (s12)
# and 11.8 (s11) runtime and NVRTC via CUDA_STUBS_*_PATH; zero on 13.x (z13).
# A few samples are also built by nvcc directly with `--default-stream per-thread` (nvcc's
# __cudaLaunchKernel_ptsz), linked to the stubs (`-lcudart` resolving to libstubs_cudart.so).
#
#   tests/gpu/cuda_samples.sh build MODE SAMPLES PREFIX WORK     MODE: normal | lines | zero
#   tests/gpu/cuda_samples.sh run   SAMPLES PREFIX WORK CUDA12 CUDA11 OUT VARIANT...
#
#   SAMPLES  a cuda-samples checkout (or a .tar.xz of one, top folder cuda-samples/)
#   PREFIX   the stubs installed by `scripts/install.sh --prefix PREFIX`
#   WORK     scratch folder (sources in WORK/src-MODE, builds in WORK/src-MODE/build)
#   CUDA12/CUDA11  folders with libcudart.so.12 + libnvrtc.so.12 (+ builtins) / .11.0 + .11.2,
#            and libcurand.so.10 of that major where carried
#   SAMPLE_TARGETS (environment) builds only these targets (e.g. the samples linking
#            CUDA::curand), without the ptsz builds; BIND_SAMPLE (environment) the sample, relative
#            to build/Samples, whose debug lines show what each variant bound (deviceQuery)
#   OUT      where result_VARIANT.json (tests/gpu/run_samples.py), targets_MODE.txt and logs go
# Results of a run on an H100 and the commands: tests/gpu/RESULTS.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
stage=$1
if [ "$stage" = build ]; then mode=$2 samples=$3 P=$4 W=$5; else samples=$2 P=$3 W=$4; fi
mkdir -p "$W/logs" "$W/link"
# -lcudart (nvcc's own link line for the ptsz builds) must find the stub.
for l in cudart cuda nvrtc; do ln -sf "$P/lib/libstubs_$l.so" "$W/link/lib$l.so"; done
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
if [ "$stage" = build ]; then
  src=$W/src-$mode
  if [ ! -d "$src" ]; then
    mkdir -p "$W/unpack"
    if [ -f "$samples" ]; then tar xJf "$samples" -C "$W/unpack"; else cp -r "$samples" "$W/unpack/cuda-samples"; fi
    mv "$W/unpack/cuda-samples" "$src"
    # One architecture (the machine's) keeps each build to a minute.
    grep -rl 'set(CMAKE_CUDA_ARCHITECTURES' --include=CMakeLists.txt "$src" \
      | xargs sed -i 's/set(CMAKE_CUDA_ARCHITECTURES [^)]*)/set(CMAKE_CUDA_ARCHITECTURES 90)/'
  fi
  cd "$src" || exit 1
  args=()
  case $mode in
    normal) ;;
    lines)
      # The README's two lines, right after the project's own find_package(CUDAToolkit REQUIRED).
      grep -q '^find_package(CUDAToolkit REQUIRED)$' CMakeLists.txt || { echo "no find_package(CUDAToolkit REQUIRED)"; exit 1; }
      sed -i 's/^find_package(CUDAToolkit REQUIRED)$/&\nfind_package(cuda-stubs CONFIG REQUIRED)\ncuda_stubs_use_for_cuda_toolkit()/' CMakeLists.txt
      grep -n -A2 '^find_package(CUDAToolkit REQUIRED)$' CMakeLists.txt
      args=("-Dcuda-stubs_DIR=$P/lib/cmake/cuda-stubs") ;;
    zero) args=("-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=$P/lib/cmake/cuda-stubs/cuda-stubs-switch.cmake") ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
  esac
  nvidia-smi -L; nvcc --version | tail -1; cmake --version | head -1
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${args[@]}" > "$W/logs/configure-$mode.log" 2>&1
  echo "$mode: configure rc=$?"
  grep -iE 'cuda-stubs|OpenMP' "$W/logs/configure-$mode.log" | sort | uniq -c | head -8
  start=$(date +%s)
  # Of SAMPLE_TARGETS, those this configuration has (an OpenGL sample is not configured
  # without OpenGL); ninja stops at an unknown target.
  targets=()
  for t in ${SAMPLE_TARGETS:-}; do
    if ninja -C build -t query "$t" > /dev/null 2>&1; then targets+=("$t"); else echo "$mode: no target $t"; fi
  done
  timeout 420 ninja -C build -k 0 -j"$(nproc)" "${targets[@]}" > "$W/logs/build-$mode.log" 2>&1
  echo "$mode: build rc=$? in $(($(date +%s) - start)) s, $(grep -c '^FAILED' "$W/logs/build-$mode.log") failed targets"
  # The executables the build produced (one per sample target that linked).
  find build/Samples -type f -executable ! -name '*.so' ! -path '*/CMakeFiles/*' -printf '%f\n' | sort > "$W/logs/executables-$mode.txt"
  echo "$mode: $(wc -l < "$W/logs/executables-$mode.txt") executables"
  if [ -n "${SAMPLE_TARGETS:-}" ]; then :; elif [ "$mode" = normal ]; then build_ptsz "$W/ptsz-normal"; else build_ptsz "$W/ptsz-$mode" -L"$W/link" -Xlinker -rpath="$P/lib"; fi
  # What the binaries need: with the stubs, never NVIDIA's runtime, driver or NVRTC.
  find build/Samples "$W/ptsz-$mode" -type f -executable ! -name '*.so' -exec readelf -d {} \; 2>/dev/null \
    | grep -oE 'NEEDED.*\[[^]]*\]' | sort | uniq -c | sort -rn > "$W/logs/needed-$mode.txt"
  grep -E 'cudart|libcuda\.|nvrtc|curand|stubs' "$W/logs/needed-$mode.txt"
  exit 0
fi
cuda12=$5 cuda11=$6 out=$7
shift 7
mkdir -p "$out"
cp "$W"/logs/executables-*.txt "$W"/logs/needed-*.txt "$out/" 2>/dev/null
for v in "$@"; do
  # The stub builds find the stubs by their RUNPATH (CMake's build tree RPATH, -rpath for ptsz).
  case $v in
    normal) mode=normal env=("CUDA_STUBS_UNUSED=1") ;;
    s13) mode=lines env=("CUDA_STUBS_UNUSED=1") ;;
    s12) mode=lines env=("CUDA_STUBS_CUDART_PATH=$cuda12/libcudart.so.12" "CUDA_STUBS_NVRTC_PATH=$cuda12/libnvrtc.so.12") ;;
    s11) mode=lines env=("CUDA_STUBS_CUDART_PATH=$cuda11/libcudart.so.11.0" "CUDA_STUBS_NVRTC_PATH=$cuda11/libnvrtc.so.11.2") ;;
    z13) mode=zero env=("CUDA_STUBS_UNUSED=1") ;;
    # The zero-line build on 12.9's runtime and cuRAND; then on 12.9's runtime with the
    # machine's 13.x cuRAND, which the one-release rule must refuse (a visible error).
    z12) mode=zero env=("CUDA_STUBS_CUDART_PATH=$cuda12/libcudart.so.12" "CUDA_STUBS_CURAND_PATH=$cuda12/libcurand.so.10") ;;
    zmix) mode=zero env=("CUDA_STUBS_CUDART_PATH=$cuda12/libcudart.so.12") ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
  esac
  bind=${BIND_SAMPLE:-1_Utilities/deviceQuery/deviceQuery}
  (cd "$W/src-$mode/build/Samples/$(dirname "$bind")" && env "${env[@]}" CUDA_STUBS_DEBUG=1 "./$(basename "$bind")" 2>&1 \
    | grep -E 'bound|rejected|release|Runtime Version|Result|error|PASS|FAIL' | head -12) > "$out/bind_$v.txt"
  env "${env[@]}" python3 "$here/run_samples.py" "$W/src-$mode/build" "$W/ptsz-$mode" "$out/result_$v.json" "$v"
done
