#!/usr/bin/env bash
# GPU proof of issue 28 (NVIDIA's link names link the stubs): programs nobody here wrote, built by
# their own CMake as their authors wrote them, leave no NVIDIA soname of a stubbed library in any
# executable's DT_NEEDED when switched, and run as they do linked normally.
#
#   cuda-samples (github.com/NVIDIA/cuda-samples): built by tests/gpu/cuda_samples.sh (modes
#     normal | lines | zero); jitLto's CMakeLists links `find_library(NVJITLINK_LIB nvJitLink)`.
#   CUDALibrarySamples (github.com/NVIDIA/CUDALibrarySamples, check-lists: quoted): each example its own CMake project
#     linking by bare names (`target_link_libraries(x PUBLIC cudart cusparse)` on C targets,
#     `cublas` on CUDA targets, `cusolver cublas cublasLt cusparse cusolverMg`, `cusparse cuda
#     cudart`, `cudart cusparse nvrtc`), configured unedited, normally and with the zero-line switch
#     `-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<prefix>/lib/cmake/cuda-stubs/cuda-stubs-switch.cmake`.
#     LIBRARY_PATH names the toolkit's library folder in both builds (the bare names' `-lcusparse`
#     find NVIDIA's real files there unless the switch rewrites them).
#
#   tests/gpu/link_names.sh libsamples CLS PREFIX WORK OUT      CLS: .tar.xz, top folder CUDALibrarySamples/
#   tests/gpu/link_names.sh samples MODE SAMPLES PREFIX WORK OUT   build (cuda_samples.sh) + DT_NEEDED check
#   tests/gpu/link_names.sh run SAMPLES PREFIX WORK OUT VARIANT...  run (cuda_samples.sh run: normal s13 z13)
#   tests/gpu/link_names.sh compare OUT                          pass/fail of result_*.json, side by side
#   tests/gpu/link_names.sh needed TAG OUT DIR...                per-executable DT_NEEDED check
#
# `needed` writes OUT/needed_TAG.txt (every executable and its NEEDED list) and prints each NVIDIA
# soname left: `stubbed` for the libraries this project stubs (must be none when switched),
# `no stub` for NVIDIA libraries that have none (libnvvm, libcusolverMg ...).
# Results of a run on an H100 and the commands: tests/gpu/RESULTS.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
stage=$1
shift
# NVIDIA sonames of the libraries the stubs stand for (CUDA_STUBS_REAL: from the specs).
source "$here/../../scripts/libraries.sh"
stubbed="^lib($(IFS='|'; echo "${CUDA_STUBS_REAL[*]}"))\\.so"
needed() {
  local tag=$1 out=$2 f n exes=0 stubs=0 left=0 other=0
  shift 2
  : > "$out/needed_$tag.txt"
  while IFS= read -r f; do
    readelf -h "$f" > /dev/null 2>&1 || continue
    exes=$((exes + 1))
    n=$(readelf -d "$f" | grep -oP 'NEEDED.*\[\K[^]]+' | tr '\n' ' ')
    echo "$f: $n" >> "$out/needed_$tag.txt"
    case " $n" in *" libstubs_"*) stubs=$((stubs + 1)) ;; esac
    for s in $n; do
      if [[ $s =~ $stubbed ]]; then left=$((left + 1)); echo "$tag: stubbed NVIDIA soname left: $f: $s"
      elif [[ $s =~ ^lib(cu|nv|npp) ]]; then other=$((other + 1)); echo "$tag: no stub: $f: $s"; fi
    done
  done < <(find "$@" -type f -executable ! -name '*.so*' ! -name '*.o' ! -path '*/CMakeFiles/*' 2>/dev/null | sort)
  echo "$tag: $exes executables, $stubs need libstubs_*, $left stubbed NVIDIA sonames left, $other NVIDIA sonames without a stub"
}
case $stage in
needed) needed "$@" ;;
samples)
  mode=$1 samples=$2 P=$3 W=$4 out=$5
  mkdir -p "$out"
  "$here/cuda_samples.sh" build "$mode" "$samples" "$P" "$W"
  cp "$W/logs/configure-$mode.log" "$W/logs/build-$mode.log" "$out/" 2>/dev/null
  needed "samples-$mode" "$out" "$W/src-$mode/build/Samples" "$W/ptsz-$mode"
  # jitLto: what its find_library(NVJITLINK_LIB nvJitLink) found, and what it links.
  grep -E '^NVJITLINK_LIB' "$W/src-$mode/build/CMakeCache.txt" 2>/dev/null
  grep -E 'jitLto$' "$W/src-$mode/build/build.ninja" -A3 2>/dev/null | grep -oE 'LINK_LIBRARIES = .*' | head -1
  ;;
run)
  samples=$1 P=$2 W=$3 out=$4
  shift 4
  "$here/cuda_samples.sh" run "$samples" "$P" "$W" /nonexistent /nonexistent "$out" "$@"
  ;;
compare)
  python3 - "$1" <<'EOF'
import json, glob, os, sys
out = sys.argv[1]
res = {os.path.basename(f)[7:-5]: json.load(open(f)) for f in sorted(glob.glob(out + "/result_*.json"))}
cols = list(res)
names = sorted(set().union(*[set(r) for r in res.values()]))
st = lambda v: "-" if v is None else ("pass" if v[0] == 0 else "skip" if v[0] is None else f"fail({v[0]})")
print("program | " + " | ".join(cols))
for n in names:
    print(n + " | " + " | ".join(st(res[c].get(n)) for c in cols))
for c in cols:
    print(c, sum(1 for v in res[c].values() if v[0] == 0), "passed of", len(res[c]))
if "normal" in res:
    for c in cols:
        if c == "normal": continue
        diff = [n for n in res["normal"] if n in res[c] and (res["normal"][n][0] == 0) != (res[c][n][0] == 0)]
        print(f"normal vs {c}: {sum(1 for n in res['normal'] if n in res[c])} in both, pass/fail differs: {diff}")
EOF
  ;;
libsamples)
  cls=$1 P=$2 W=$3 out=$4
  mkdir -p "$W" "$out"
  [ -d "$W/CUDALibrarySamples" ] || tar xJf "$cls" -C "$W"
  T=$(dirname "$(dirname "$(command -v nvcc)")")
  lib=$T/lib64
  [ -e "$lib/libcusparse.so" ] || lib=$T/targets/x86_64-linux/lib
  export LIBRARY_PATH=$lib${LIBRARY_PATH:+:$LIBRARY_PATH}
  echo "toolkit $T, LIBRARY_PATH=$LIBRARY_PATH; ldconfig knows: $(ldconfig -p | grep -cE 'libcusparse|libcublas') cuSPARSE/cuBLAS entries"
  examples="cuSPARSE/axpby cuSPARSE/coosort cuSPARSE/dense2sparse_csr cuSPARSE/gather cuSPARSE/rot
    cuSPARSE/scatter cuSPARSE/sddmm_csr cuSPARSE/sparse2dense_csr cuSPARSE/spgemm cuSPARSE/spmm_coo
    cuSPARSE/spmm_csr cuSPARSE/spmv_coo cuSPARSE/spmv_csr cuSPARSE/spsm_csr cuSPARSE/spsv_csr
    cuSPARSE/spvv cuSPARSE/graph_capture cuSPARSE/gpsvInterleavedBatch cuSPARSE/compression
    cuSPARSE/spmm_csr_op cuBLAS/Level-1/amax cuBLAS/Level-1/axpy cuBLAS/Level-1/dot
    cuBLAS/Level-1/nrm2 cuBLAS/Level-1/scal cuBLAS/Level-2/gemv cuBLAS/Level-3/gemm
    cuBLAS/Level-3/gemmBatched cuBLAS/Level-3/gemmStridedBatched cuBLAS/Level-3/syrk
    cuBLAS/Level-3/trsm cuSOLVER/getrf cuSOLVER/syevd cuSOLVER/gesvd cuSOLVER/Xgeqrf"
  one() { # MODE EXAMPLE: configure, build, run; writes WORK/cls/MODE/NAME.{cfg,build,run,rc}
    local mode=$1 ex=$2 name=${2//\//_} b args=() e
    b=$W/cls/$mode/$name
    mkdir -p "$b"
    [ "$mode" = zero ] && args=("-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=$P/lib/cmake/cuda-stubs/cuda-stubs-switch.cmake")
    if ! cmake -S "$W/CUDALibrarySamples/$ex" -B "$b/build" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 "${args[@]}" > "$b.cfg" 2>&1; then
      echo configure > "$b.rc"; return; fi
    if ! cmake --build "$b/build" -j4 > "$b.build" 2>&1; then echo build > "$b.rc"; return; fi
    e=$(find "$b/build" -type f -executable ! -name '*.so*' ! -path '*/CMakeFiles/*' | head -1)
    (cd "$(dirname "$e")" && timeout 60 "./$(basename "$e")" > "$b.run" 2>&1; echo $? > "$b.rc")
  }
  export -f one
  export W P
  start=$(date +%s)
  for m in normal zero; do for e in $examples; do echo "$m $e"; done; done | xargs -P12 -n2 bash -c 'one "$0" "$1"'
  echo "CUDALibrarySamples: $(echo $examples | wc -w) examples x 2 builds and runs in $(($(date +%s) - start)) s"
  {
    echo "example | normal | zero-line switch | output (timings dropped) | switched DT_NEEDED"
    for e in $examples; do
      n=${e//\//_}
      rn=$(cat "$W/cls/normal/$n.rc" 2>/dev/null) rz=$(cat "$W/cls/zero/$n.rc" 2>/dev/null)
      norm() { grep -viE 'time|elapsed|[0-9] *ms\b|GFLOP|bandwidth|perf improvement' "$1" 2>/dev/null | sed -E 's/0x[0-9a-f]+/ADDR/g'; }
      if diff <(norm "$W/cls/normal/$n.run") <(norm "$W/cls/zero/$n.run") > "$W/cls/$n.diff"; then o=same; else o=differs; fi
      x=$(find "$W/cls/zero/$n/build" -type f -executable ! -name '*.so*' ! -path '*/CMakeFiles/*' | head -1)
      d=$([ -n "$x" ] && readelf -d "$x" | grep -oP 'NEEDED.*\[\K[^]]+' | grep -E '^lib(stubs_|cu|nv)' | tr '\n' ' ')
      echo "$e | $rn | $rz | $o | $d"
    done
  } | tee "$out/libsamples.txt"
  echo "CUDALibrarySamples: $(grep -c '| 0 | 0 |' "$out/libsamples.txt") pass both ways, outputs $(grep -c '| same |' "$out/libsamples.txt") the same, $(grep -c '| differs |' "$out/libsamples.txt") differ"
  cat "$W"/cls/*.diff
  needed cls-normal "$out" "$W/cls/normal"
  needed cls-zero "$out" "$W/cls/zero"
  # What the switch made of the bare names (the link line of one example of each style).
  for n in cuSPARSE_spmv_csr cuBLAS_Level-3_gemm cuSOLVER_getrf cuSPARSE_compression cuSPARSE_spmm_csr_op; do
    echo "$n normal: $(grep -oE 'LINK_LIBRARIES = .*' "$W/cls/normal/$n/build/build.ninja" | head -1)"
    echo "$n zero:   $(grep -oE 'LINK_LIBRARIES = .*' "$W/cls/zero/$n/build/build.ninja" | head -1)"
  done
  (cd "$W/cls" && tar cJf "$out/libsamples-logs.tar.xz" normal/*.cfg normal/*.build normal/*.run normal/*.rc zero/*.cfg zero/*.build zero/*.run zero/*.rc ./*.diff 2>/dev/null)
  ;;
*) echo "unknown stage $stage" >&2; exit 2 ;;
esac
