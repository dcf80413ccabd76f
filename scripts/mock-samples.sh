#!/usr/bin/env bash
# NVIDIA's cuda-samples on the mock device (issue 47 item 6): the single-file runtime samples,
# built by nvcc 13.5 from NVIDIA's wheels with PTX only (`-gencode arch=compute_90,code=compute_90`,
# `-cudart shared`) and linked to the runtime stub, run under CUDA_STUBS_MOCK=h200 on this
# machine (no GPU needed); a table of what each did and, for failures, the mock's debug lines
# naming what it refused. The samples are third-party code: fetched by you, extracted outside
# this repository, never copied into it.
#
#   scripts/mock-samples.sh build SAMPLES WORK   extract and build into WORK/bin
#   scripts/mock-samples.sh run WORK [STUBS]     run WORK/bin under the mock, table in WORK
#   scripts/mock-samples.sh all SAMPLES WORK [STUBS]
#   scripts/mock-samples.sh pack WORK TARBALL [STUBS]   the binaries and stubs for
#                                                tests/gpu/mock_samples.sh (the GPU proof)
#   scripts/mock-samples.sh compare REAL MOCK OUT   a real pass's runs against a mock pass's
#
#   SAMPLES  a cuda-samples git repository (bare or not: e.g. the mirror
#            /work/.mirror/NVIDIA+cuda-samples/repo; blobs missing from a partial mirror, only
#            documents and data files there, are left out), or an extracted checkout
#   WORK     scratch folder: WORK/src (the samples), WORK/bin (one executable per sample, and
#            NAME.args with its arguments from the samples' test_args.json, one line per run),
#            WORK/built.txt, WORK/skipped.txt, WORK/logs, WORK/table-mock.md and .tsv
#   STUBS    folder with libstubs_cudart.so and libcuda_stubs_mock.so beside it (default:
#            target/release, else target/debug; a debug mock runs kernels ~30x slower)
# Environment: CUDA_NVCC_DIR (default: the wheel cache of scripts/fetch-cuda.py,
# ~/.cache/cuda-stubs/cuda-13/nvidia/cu13: its bin/nvcc and, for the stub's PTX 9.5 -> CUBIN
# step, lib/libnvJitLink.so.13), SAMPLE_TIMEOUT (seconds per sample, default 120),
# CUDA_STUBS_MOCK_THREADS (default 2), MOCK_PROFILE (default h200), ONLY (an extended regex: only the samples it matches),
# SAMPLE_GENCODE (nvcc's -gencode, default `arch=compute_90,code=compute_90`),
# SAMPLE_INCLUDES (colon-separated include folders for nvcc: NVIDIA's nvcc wheel lacks CCCL,
# which cuda_fp16.h, cooperative groups, cuda/pipeline and thrust need, and
# cuda_profiler_api.h: `pip download --no-deps nvidia-cuda-cccl nvidia-cuda-profiler-api`,
# unzip, and name nvidia/cu13/include and nvidia/cu13/include/cccl of the first and
# nvidia/cu13/include of the second; without them those samples are "build failed").
#
# Which samples: every Samples/<category>/<sample>/ folder whose sources are that folder's own
# (.cu files, the reference code of some in .cpp/.c beside them, its headers and Common/'s:
# nothing built from another folder), whose CMakeLists.txt links no
# library and finds no package beyond the CUDA toolkit (the runtime is the only library),
# that has no data/ folder, reads no file (sdkFindFilePath, sdkLoadPPM/PGM) and is not skipped
# by test_args.json. Everything else is printed with its reason in WORK/skipped.txt. A sample
# that fails to build with plain whole-program nvcc (dynamic parallelism needs -rdc and
# cudadevrt) is listed as "build failed" with nvcc's first error.
#
# The binaries carry no RUNPATH: the runtime stub is found through LD_LIBRARY_PATH (STUBS), so
# that the same binaries run on a GPU machine, through the stubs and the real driver, and under
# the mock there (tests/gpu/mock_samples.sh).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
stage=${1:-}
N=${CUDA_NVCC_DIR:-$HOME/.cache/cuda-stubs/cuda-13/nvidia/cu13}
timeout_s=${SAMPLE_TIMEOUT:-120}
# nvcc's -gencode: PTX only by default (what the mock runs); `arch=compute_90,code=[compute_90,sm_90]`
# adds a CUBIN, for a GPU run without nvJitLink 13.5 (tests/gpu/mock_samples.sh).
gencode=${SAMPLE_GENCODE:-arch=compute_90,code=compute_90}
stage_usage="usage: scripts/mock-samples.sh build SAMPLES WORK | run WORK [STUBS] | all SAMPLES WORK [STUBS] | pack WORK TARBALL [STUBS] | compare REAL MOCK OUT"

# extract SAMPLES DEST: the samples' files, from a git repository (skipping blobs a partial
# mirror lacks) or a folder.
extract() {
  local src=$1 dest=$2
  mkdir -p "$dest"
  if git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
    local missing
    # shellcheck disable=SC2207 # paths in cuda-samples have no spaces
    missing=($(git -C "$src" ls-tree -r HEAD --format='%(objectname) %(path)' \
      | awk '{print $1}' | git -C "$src" cat-file --batch-check \
      | paste -d' ' - <(git -C "$src" ls-tree -r HEAD --format='%(path)') \
      | awk '$2 == "missing" {print ":(exclude)" $3}'))
    git -C "$src" archive HEAD -- . "${missing[@]}" | tar -x -C "$dest" || return 1
    echo "extracted $(git -C "$src" rev-parse HEAD) (${#missing[@]} blobs missing from the mirror left out)"
  else
    cp -r "$src"/. "$dest"/
  fi
}

# why_skip DIR: empty when the sample folder qualifies, else the reason.
why_skip() {
  local d=$1 name cus others libs pkgs
  name=$(basename "$d")
  cus=$(find "$d" -maxdepth 1 -name '*.cu' | wc -l)
  others=$(find "$d" -maxdepth 1 \( -name '*.cpp' -o -name '*.c' -o -name '*.cc' -o -name '*.cxx' \) | wc -l)
  [ "$cus" -ge 1 ] || { echo "no .cu in its folder ($others C/C++ sources)"; return; }
  [ -f "$d/CMakeLists.txt" ] || { echo "no CMakeLists.txt"; return; }
  # The libraries named by its target_link_libraries (the first lines of each call).
  libs=$(grep -A3 'target_link_libraries' "$d/CMakeLists.txt" \
    | grep -oE 'CUDA::[A-Za-z_]+|[A-Za-z]+::[A-Za-z_]+|\$\{[A-Za-z0-9_]+\}|\b(pthread|rt|socket|d3d1[12]|dxgi|glfw|culibos)\b' \
    | grep -v '^CUDA::cudart$' | sort -u | tr '\n' ' ')
  libs=${libs% }
  [ -n "$libs" ] && { echo "links $libs"; return; }
  pkgs=$(grep -oE 'find_package\( *[A-Za-z0-9_]+' "$d/CMakeLists.txt" | sed -E 's/find_package\( *//' | grep -v '^CUDAToolkit$' | tr '\n' ' ')
  [ -n "$pkgs" ] && { echo "needs ${pkgs% }"; return; }
  [ -d "$d/data" ] && { echo "data files (data/)"; return; }
  grep -qE 'sdkFindFilePath|sdkLoadPPM|sdkLoadPGM|sdkReadFile' "$d"/*.cu && { echo "reads a data file"; return; }
  python3 - "$test_args" "$name" <<'EOF' || { echo "skipped by test_args.json"; return; }
import json, sys
sys.exit(1 if json.load(open(sys.argv[1])).get(sys.argv[2], {}).get("skip") else 0)
EOF
}

build() {
  local samples=$1 W=$2 d name why err
  mkdir -p "$W/bin" "$W/logs" "$W/link"
  [ -d "$W/src/Samples" ] || extract "$samples" "$W/src" || { echo "cannot extract $samples" >&2; exit 1; }
  test_args=$W/src/test_args.json
  [ -x "$N/bin/nvcc" ] || { echo "no nvcc in $N/bin (python3 scripts/fetch-cuda.py)" >&2; exit 1; }
  # nvcc's -lcudart (from -cudart shared) resolves to the runtime stub: its SONAME is what the
  # binaries then need. Any libstubs_cudart.so will do to link (its exports are the same).
  local stub
  stub=$(ls "$repo"/target/release/libstubs_cudart.so "$repo"/target/debug/libstubs_cudart.so 2> /dev/null | head -1)
  [ -n "$stub" ] || { echo "no libstubs_cudart.so under target/ (cargo build -p stubs-cudart)" >&2; exit 1; }
  ln -sf "$stub" "$W/link/libcudart.so"
  "$N/bin/nvcc" --version | tail -1
  # NVIDIA's nvcc wheel comes without CCCL (nv/target, cuda/pipeline, thrust, cub) and
  # cuda_profiler_api.h, which other wheels hold (SAMPLE_INCLUDES).
  local inc cccl=()
  IFS=: read -ra inc <<< "${SAMPLE_INCLUDES:-}"
  for d in "${inc[@]}"; do [ -n "$d" ] && cccl+=("-I$d"); done
  : > "$W/skipped.txt"
  : > "$W/built.txt"
  for d in "$W"/src/Samples/*/*/; do
    d=${d%/}
    name=$(basename "$d")
    [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]] && continue
    why=$(why_skip "$d")
    if [ -n "$why" ]; then
      printf '%s\t%s\t%s\n' "$(basename "$(dirname "$d")")" "$name" "$why" >> "$W/skipped.txt"
      continue
    fi
    # The samples' own CMake flags (C++17, --extended-lambda), one PTX for compute_90 and no
    # CUBIN: what the mock's executor runs, and what a board's driver compiles for itself.
    # (An executable already built by an earlier call is kept: delete WORK/bin to rebuild.)
    if [ -x "$W/bin/$name" ] || (cd "$d" && PATH=$N/bin:$PATH TMPDIR=$W/logs timeout 300 nvcc -O2 -std=c++17 --extended-lambda \
      -gencode "$gencode" -cudart shared -I"$W/src/Common" \
      "${cccl[@]}" -o "$W/bin/$name" $(ls ./*.cu ./*.cpp ./*.c 2> /dev/null) -L"$W/link") > "$W/logs/build-$name.log" 2>&1; then
      python3 - "$test_args" "$name" > "$W/bin/$name.args" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1])).get(sys.argv[2], {})
# One line per run: its arguments, space-separated (none of the samples' has a space).
for r in c.get("runs") or [{"args": c.get("args", [])}]:
    print(" ".join(r.get("args", [])))
EOF
      echo "$name" >> "$W/built.txt"
    else
      err=$(grep -m1 -iE 'error' "$W/logs/build-$name.log" | cut -c1-160)
      printf '%s\t%s\tbuild failed: %s\n' "$(basename "$(dirname "$d")")" "$name" "$err" >> "$W/skipped.txt"
    fi
  done
  echo "built $(wc -l < "$W/built.txt") samples into $W/bin; $(wc -l < "$W/skipped.txt") skipped ($W/skipped.txt):"
  cut -f2- "$W/skipped.txt" | sed 's/^/  /'
}

# pass_line FILE: the sample's verdict line (the last one naming a pass, failure or waiver), else
# its last two lines.
pass_line() {
  local v
  v=$(grep -v '^cuda-stubs\[' "$1" | grep -iE 'pass|fail|waiv|Result *=|error|mismatch' | tail -1)
  [ -n "$v" ] || v=$(grep -v '^cuda-stubs\[' "$1" | tail -2 | tr '\n' ' ')
  printf '%s' "$v" | tr '\t|' '  ' | cut -c1-160
}

# stubs_dir [STUBS]: the folder of the runtime stub and the mock (checked).
stubs_dir() {
  local S=${1:-}
  if [ -z "$S" ]; then
    S=$repo/target/release
    [ -f "$S/libcuda_stubs_mock.so" ] || S=$repo/target/debug
  fi
  S=$(cd "$S" && pwd)
  [ -f "$S/libstubs_cudart.so" ] && [ -f "$S/libcuda_stubs_mock.so" ] \
    || { echo "$S lacks libstubs_cudart.so or libcuda_stubs_mock.so" >&2; exit 1; }
  echo "$S"
}

# run WORK [STUBS]: every built sample, once per line of its NAME.args (that run's arguments),
# labelled NAME, or "NAME ARGS" where it has several runs. SAMPLE_MODE=mock (default) runs under
# CUDA_STUBS_MOCK=h200; SAMPLE_MODE=real through the stubs on the machine's driver and the CUDA
# runtime found first on LD_LIBRARY_PATH ($CUDA_HOME/lib64, default /usr/local/cuda/lib64).
# Logs in WORK/logs/MODE-LABEL.txt (stdout and the debug log), the table in WORK/table-MODE.md.
run() {
  local W=$1 S name rc t0 secs refused label line runs mode=${SAMPLE_MODE:-mock}
  S=$(stubs_dir "${2:-}") || exit 1
  local env=(CUDA_STUBS_DEBUG=1 "CUDA_STUBS_MOCK_THREADS=${CUDA_STUBS_MOCK_THREADS:-2}")
  local libs=$S:$N/lib
  case $mode in
    mock) env+=("CUDA_STUBS_MOCK=${MOCK_PROFILE:-h200}") ;;
    real) libs=$S:${CUDA_HOME:-/usr/local/cuda}/lib64 ;;
    *) echo "SAMPLE_MODE is mock or real" >&2; exit 2 ;;
  esac
  mkdir -p "$W/logs"
  local tsv=$W/table-$mode.tsv
  printf 'sample\trc\tverdict\tseconds\tmock refused\n' > "$tsv"
  while read -r name; do
    [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]] && continue
    runs=$(grep -c '' "$W/bin/$name.args")
    while IFS= read -r line; do
      read -ra args <<< "$line"
      label=$name
      [ "$runs" -gt 1 ] && label="$name ${line}"
      t0=$(date +%s.%N)
      # Each sample in its own folder (some write files); the debug log on stderr, in the
      # same file.
      mkdir -p "$W/run-$mode/$name"
      (cd "$W/run-$mode/$name" && env "${env[@]}" LD_LIBRARY_PATH="$libs" \
        timeout -k 5 "$timeout_s" "$W/bin/$name" "${args[@]}") \
        > "$W/logs/$mode-${label// /_}.txt" 2>&1 < /dev/null
      rc=$?
      secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
      [ $rc -eq 124 ] && rc=timeout
      # What the mock refused or ended: calls it does not model, launches it cannot run,
      # faults.
      refused=$(grep -E '^cuda-stubs\[mock\].*(not supported|not modelled|ended:|refus|cannot)' "$W/logs/$mode-${label// /_}.txt" \
        | sed 's/^cuda-stubs\[mock\]: //' | sort | uniq -c | sort -rn | head -4 \
        | sed -E 's/^ *([0-9]+) /\1x /' | tr '\n\t|' ';  ' | cut -c1-400)
      printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$rc" "$(pass_line "$W/logs/$mode-${label// /_}.txt")" "$secs" "$refused" >> "$tsv"
      tail -1 "$tsv"
    done < "$W/bin/$name.args"
  done < "$W/built.txt"
  # The Markdown table and the figure.
  {
    echo "| sample | rc | verdict (pass line, else last lines) | s | the mock refused (debug lines) |"
    echo "|---|---|---|---|---|"
    tail -n +2 "$tsv" | awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
  } > "$W/table-$mode.md"
  local passed
  # Passed: exit 0 and no failure in its verdict (a few samples exit 0 after printing FAILED;
  # "assert failed as expected", "0 Failures" and "L1-Error: 0" are passes).
  passed=$(awk -F'\t' 'NR > 1 && $2 == "0" && $3 !~ /FAIL(ED)?([^A-Z]|$)|[Tt]est failed|mismatch/' "$tsv" | wc -l)
  echo "$mode ($S): $passed passed (exit 0, no failure printed) / $(($(wc -l < "$tsv") - 1)) run / $(wc -l < "$W/built.txt") built / $(wc -l < "$W/skipped.txt" 2> /dev/null || echo 0) skipped; table $W/table-$mode.md"
}

# compare REAL MOCK OUT: the runs of two `run` passes (REAL: a WORK folder of SAMPLE_MODE=real,
# MOCK: one of SAMPLE_MODE=mock; the same folder for both where both ran in one WORK), line by
# line after FILTER, each run's rc too; the filtered logs, the differences and both tables in OUT.
# Only the runs of both passes are compared (ONLY may have narrowed either).
compare() {
  local R=$1 M=$2 O=$3 label rc mrc f equal=0 differ=0 total=0
  mkdir -p "$O"
  # FILTER: what is not compared. Each rule is one sed expression:
  #  - the stubs' debug log (CUDA_STUBS_DEBUG lines);
  #  - the device's name (the board's and the profile's are the same part, but the real
  #    name carries the memory size) -> <GPU>;
  #  - hex addresses (pointers printed by some samples) -> <hex>;
  #  - every number on a line about time, speed or clock counts -> # (the executor runs at CPU
  #    speed, and the board's own times vary run to run).
  FILTER=(
    -e '/^cuda-stubs\[/d'
    -e 's/NVIDIA H[12]00[^"]*/<GPU>/g'
    -e 's/\b0x[0-9a-fA-F]+/<hex>/g'
    -e '/[Tt]ime|[^a-z]ms\b|msec|[Ss]ec(ond)?s?\b|[0-9]s\b|GB\/s|MB\/s|[GM]flop|GFLOP|TFLOP|[Tt]hroughput|[Bb]andwidth|[Cc]locks?|[Ee]lapsed|[Pp]erf|MOPS|[Oo]ptions\/s|[Ss]peedup|\/s\b/s/[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/#/g'
  )
  echo "filter: sed -E ${FILTER[*]}"
  : > "$O/differences.txt"
  while IFS=$'\t' read -r label rc _; do
    [ "$label" = sample ] && continue
    f=${label// /_}
    [ -f "$M/logs/mock-$f.txt" ] || continue
    total=$((total + 1))
    sed -E "${FILTER[@]}" "$R/logs/real-$f.txt" > "$O/real-$f.txt"
    sed -E "${FILTER[@]}" "$M/logs/mock-$f.txt" > "$O/mock-$f.txt"
    mrc=$(awk -F'\t' -v l="$label" '$1 == l {print $2}' "$M/table-mock.tsv")
    if [ "$rc" = "$mrc" ] && diff -q "$O/real-$f.txt" "$O/mock-$f.txt" > /dev/null; then
      equal=$((equal + 1))
    else
      differ=$((differ + 1))
      {
        echo "=== $label: real rc=$rc, mock rc=$mrc"
        diff "$O/real-$f.txt" "$O/mock-$f.txt" | head -12
      } >> "$O/differences.txt"
    fi
  done < "$R/table-real.tsv"
  cp "$R"/table-real.* "$M"/table-mock.* "$R/skipped.txt" "$O/"
  echo "real vs mock, line by line after the filter: $equal equal, $differ differ, of $total runs"
  echo "--- runs that differ (first lines of each diff: < real, > mock)"
  cat "$O/differences.txt"
}

# pack WORK TARBALL [STUBS]: for tests/gpu/mock_samples.sh, the built samples, the program of
# tests/cuda/mock_programs.cu built the same way (one run per case), the stubs (runtime,
# driver, NVML, the mock) and nvJitLink 13.5 (the GPU machine's 13.0 driver and toolkit cannot
# read nvcc 13.5's PTX 9.5: the stub compiles it), as one .tar.xz (top folder mock-samples/).
pack() {
  local W=$1 out=$2 S f
  S=$(stubs_dir "${3:-}") || exit 1
  local P=$W/pack/mock-samples
  rm -rf "$W/pack"
  mkdir -p "$P/bin" "$P/stubs"
  (cd "$W/logs" && PATH=$N/bin:$PATH TMPDIR=$W/logs nvcc -O2 -gencode "$gencode" \
    -cudart shared -o "$P/bin/mock_programs" "$repo/tests/cuda/mock_programs.cu" -L"$W/link") \
    || { echo "mock_programs.cu: build failed" >&2; exit 1; }
  printf '%s\n' vector_add matmul reduce printf assert out_of_bounds sticky_calls constant graph heap > "$P/bin/mock_programs.args"
  cp "$W/built.txt" "$P/built.txt"
  echo mock_programs >> "$P/built.txt"
  cp "$W/skipped.txt" "$P/skipped.txt"
  while read -r f; do cp "$W/bin/$f" "$W/bin/$f.args" "$P/bin/"; done < "$W/built.txt"
  for f in libstubs_cudart.so libstubs_cuda.so libstubs_nvml.so libcuda_stubs_mock.so; do
    [ -f "$S/$f" ] && cp "$S/$f" "$P/stubs/"
  done
  # Only PTX needs it; with an sm_90 CUBIN beside the PTX (SAMPLE_GENCODE) the GPU's driver
  # loads the CUBIN (CUDA 13.x's minor-version compatibility) and the tarball stays small
  # enough to carry (the device tool's 64 MiB).
  [[ $gencode == *sm_* ]] || cp "$N/lib/libnvJitLink.so.13" "$P/stubs/"
  tar -C "$W/pack" -cf - mock-samples | xz -T0 -6 > "$out"
  echo "packed $(wc -l < "$P/built.txt") programs and the stubs of $S into $out ($(du -h "$out" | cut -f1))"
}

case $stage in
  build) build "${2:?SAMPLES}" "${3:?WORK}" ;;
  run) run "${2:?WORK}" "${3:-}" ;;
  pack) pack "${2:?WORK}" "${3:?TARBALL}" "${4:-}" ;;
  compare) compare "${2:?REAL}" "${3:?MOCK}" "${4:?OUT}" ;;
  all) build "${2:?SAMPLES}" "${3:?WORK}" && run "$3" "${4:-}" ;;
  *) echo "$stage_usage" >&2; exit 2 ;;
esac
