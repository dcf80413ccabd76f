#!/usr/bin/env bash
# On the GPU machine (issue 49): the new libraries whose NVIDIA files the GPU machine's CUDA
# toolkit has, each run linked normally and through the stubs, outputs and DT_NEEDED compared.
#   - cuSOLVERMg: NVIDIA's CUDALibrarySamples cuSOLVER/MgGetrf, MgPotrf, MgSyevd (fetched by
#     you, extracted outside the repository, here .device/cls), built by their own CMake files,
#     unedited: once plainly, once with the link folder's documented line only
#     (`-DCMAKE_EXE_LINKER_FLAGS=-L<link folder> -Wl,-rpath,<stubs>`; the samples link the bare
#     names cusolver, cublas, cublasLt, cusparse, cusolverMg);
#   - cuFFTW and nvBLAS: tests/c/cufftw_host.c and tests/c/nvblas_host.c against the toolkit's
#     headers, linked to NVIDIA's libcufftw / libnvblas and to the stubs.
#   OUT=$OUT bash tests/gpu/wheel_libraries.sh STUBS_DIR SAMPLES_DIR
# STUBS_DIR holds the libstubs_*.so files; the link folder is made under $OUT as the CMake
# package makes it (a GNU ld script per NVIDIA link name, INPUT(the stub)).
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/wheel_libraries.sh STUBS_DIR SAMPLES_DIR}")
S=$(realpath "${2:?usage: tests/gpu/wheel_libraries.sh STUBS_DIR SAMPLES_DIR}")
cuda=${CUDA_HOME:-/usr/local/cuda}
here=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
L=$OUT/link; mkdir -p "$L"
for pair in cudart:cudart cublas:cublas cublasLt:cublaslt cusparse:cusparse cusolver:cusolver \
            cusolverMg:cusolvermg cufft:cufft cufftw:cufftw nvblas:nvblas; do
  printf 'INPUT(%s/libstubs_%s.so)\n' "$D" "${pair#*:}" > "$L/lib${pair%%:*}.so"
done
compare() { # NAME NORMAL STUB
  "$2" > "$OUT/$1.normal.txt" 2>&1; local rn=$?
  "$3" > "$OUT/$1.stub.txt" 2>&1; local rs=$?
  local nv; nv=$(readelf -d "$3" | grep NEEDED | grep -cE 'libcu|libnv' || true)
  local st; st=$(readelf -d "$3" | grep NEEDED | grep -c libstubs_ || true)
  if diff "$OUT/$1.normal.txt" "$OUT/$1.stub.txt" > "$OUT/$1.diff"; then same=same; else same="differ ($(grep -c '^<' "$OUT/$1.diff") lines)"; fi
  echo "| $1 | rc $rn | rc $rs | $same | $st libstubs_*, $nv NVIDIA sonames |"
}
echo "| program | normal | stubs | output | stubs' DT_NEEDED |"
echo "|---|---|---|---|---|"
for s in MgGetrf MgPotrf MgSyevd; do
  for mode in normal stub; do
    flags=()
    [ $mode = stub ] && flags=(-DCMAKE_EXE_LINKER_FLAGS="-L$L -Wl,-rpath,$D")
    cmake -S "$S/cuSOLVER/$s" -B "$OUT/b-$s-$mode" -DCMAKE_BUILD_TYPE=Release "${flags[@]}" > "$OUT/cmake-$s-$mode.log" 2>&1 &&
      cmake --build "$OUT/b-$s-$mode" -j 8 >> "$OUT/cmake-$s-$mode.log" 2>&1 || echo "$s $mode: build failed (cmake-$s-$mode.log)"
  done
  for exe in "$OUT/b-$s-normal"/cusolver_*; do
    [ -x "$exe" ] || continue
    n=$(basename "$exe"); compare "$n" "$exe" "$OUT/b-$s-stub/$n"
  done
done
gcc -std=c11 -O1 -I"$cuda/include" -o "$OUT/cufftw_normal" "$here/tests/c/cufftw_host.c" -L"$cuda/lib64" -lcufftw -lcufft -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -I"$cuda/include" -o "$OUT/cufftw_stub" "$here/tests/c/cufftw_host.c" -L"$L" -lcufftw -Wl,-rpath,"$D"
compare cufftw_host "$OUT/cufftw_normal" "$OUT/cufftw_stub"
gcc -shared -fPIC -o "$OUT/libcpu_blas.so" "$here/tests/mocks/cpu_blas.c"
printf 'NVBLAS_LOGFILE %s/nvblas.log\nNVBLAS_CPU_BLAS_LIB %s/libcpu_blas.so\nNVBLAS_GPU_LIST ALL\n' "$OUT" "$OUT" > "$OUT/nvblas.conf"
export NVBLAS_CONFIG_FILE=$OUT/nvblas.conf
gcc -std=c11 -O1 -I"$cuda/include" -o "$OUT/nvblas_normal" "$here/tests/c/nvblas_host.c" -L"$cuda/lib64" -lnvblas -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -I"$cuda/include" -o "$OUT/nvblas_stub" "$here/tests/c/nvblas_host.c" -L"$L" -lnvblas -Wl,-rpath,"$D"
compare nvblas_host "$OUT/nvblas_normal" "$OUT/nvblas_stub"
for f in "$OUT"/*.diff; do [ -s "$f" ] && { echo "--- $f"; head -20 "$f"; }; done
echo "--- MgGetrf through the stubs"; head -30 "$OUT"/cusolver_MgGetrf_example.stub.txt 2>/dev/null
