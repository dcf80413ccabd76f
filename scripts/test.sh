#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Sets up what it needs on a fresh machine:
# the Debian packages, rustup targets and mdbook of scripts/setup-machine.sh, NVIDIA's wheels for
# the real-library tests.
#
# Time (issue 38): CI gives it 2 cores and 90 minutes; the budget is the book's (docs/src/tests.md,
# "Time budget"): a warning past 45 minutes, a failure past 75 (CI stops at 90). It ends with a table of each
# stage's wall time (also when a stage fails: the table so far). What keeps it short:
#   - one build of each profile and target, shared by every stage that needs it. The compile
#     stages come first, one cargo at a time (two big stub crates compiling take ~14 GB, a
#     second cargo beside them would pass CI's 24 GiB); each later cargo command (the tests'
#     nested builds, install.sh, `pip wheel`, main-job.sh) finds its build fresh. That holds
#     only while they ask for the same profile, features (the same package selection: cargo
#     unifies features over the packages asked for) and RUSTFLAGS: a stage that differs
#     rebuilds, and its time in the table shows it.
#   - downloads (NVIDIA's wheels of three platforms, Debian 11's glibc) in the background while
#     the first stages compile;
#   - then the stages that run programs, two at a time: each leaves a core idle much of the
#     time (one qemu, wine, pip or cmake process, a test binary's last tests).
set -euo pipefail
cd "$(dirname "$0")/.."

# ---- stage bookkeeping: `stage` (foreground), `background` + `join` (two at a time) --------

# The book's budget, in minutes (docs/src/tests.md, "Time budget", says the same: checked below).
budget_warn=45 budget_fail=75
logs=target/test-logs
rm -rf "$logs" && mkdir -p "$logs"
suite_start=$(date +%s)
rows=()               # the table: "stage<TAB>seconds<TAB>note"
current= current_start=
declare -A bg_pid=() bg_start=() bg_note=()
bg_running=()         # background stages not joined yet, in start order

# stage NAME WHAT: the next foreground stage begins (the previous one ends).
stage() {
  end_stage
  current=$1 current_start=$(date +%s)
  echo "== $1: $2"
}
end_stage() {
  [ -z "$current" ] || rows+=("$current"$'\t'"$(($(date +%s) - current_start))"$'\t'"$(disk_free_gb) GB free")
  current=
}

# background NAME NOTE CMD...: a stage run beside the foreground ones, its output in
# $logs/NAME.log (shown whole by `join`, not interleaved with the foreground's). It runs in a
# subshell under the same `set -e`; its EXIT trap notes when it ended, whatever its status.
background() {
  local name=$1 note=$2
  shift 2
  echo "== $name: in the background ($note), log: $logs/$name.log"
  (trap 'date +%s >"$logs/$name.end"' EXIT; "$@") >"$logs/$name.log" 2>&1 &
  bg_pid[$name]=$! bg_start[$name]=$(date +%s) bg_note[$name]=$note
  bg_running+=("$name")
}

# join NAME...: waits for these background stages (every one not joined yet, with no name),
# shows each one's log and time; exits with the first failure's status once all have ended.
join() {
  wait_for "$@"
  [ "$wait_status" = 0 ] || exit "$wait_status"
}
# wait_for NAME...: join without the exit; the first failure's status in $wait_status.
wait_for() {
  local name rc end note left=()
  wait_status=0
  [ $# -gt 0 ] || set -- "${bg_running[@]}"
  for name in "$@"; do
    rc=0
    wait "${bg_pid[$name]}" || rc=$?
    end=$(cat "$logs/$name.end" 2>/dev/null || date +%s)
    note="background: ${bg_note[$name]}"
    echo "== $name (${note}): its log, $((end - ${bg_start[$name]})) s"
    cat "$logs/$name.log"
    if [ "$rc" != 0 ]; then
      echo "== $name failed (exit $rc)" >&2
      note="FAILED (exit $rc); $note"
      [ "$wait_status" != 0 ] || wait_status=$rc
    fi
    rows+=("$name"$'\t'"$((end - ${bg_start[$name]}))"$'\t'"$note")
  done
  for name in "${bg_running[@]}"; do
    [[ " $* " == *" $name "* ]] || left+=("$name")
  done
  bg_running=("${left[@]}")
}

# At exit, success or not: a failed foreground stage first waits for the background ones (their
# logs and status are part of the result), then the table, the total and the budget.
report() {
  local status=$? total
  trap - EXIT
  set +e
  if [ -n "$current" ] && [ "$status" != 0 ]; then
    rows+=("$current"$'\t'"$(($(date +%s) - current_start))"$'\t'"FAILED (exit $status); $(disk_free_gb) GB free")
    current=
  fi
  end_stage
  if [ ${#bg_running[@]} -gt 0 ]; then
    wait_for
    [ "$status" != 0 ] || status=$wait_status
  fi
  total=$(($(date +%s) - suite_start))
  echo
  echo "== stage times (wall clock, seconds)"
  printf '%s\n' "${rows[@]}" | awk -F'\t' '{ printf "  %-18s %5d  %s\n", $1, $2, $3 }'
  printf '  %-18s %5d  (%d min %02d s; budget: a warning past %d min, a failure past %d min)\n' \
    total "$total" $((total / 60)) $((total % 60)) "$budget_warn" "$budget_fail"
  if [ "$total" -gt $((budget_fail * 60)) ]; then
    echo "test.sh: $((total / 60)) minutes, past the ${budget_fail}-minute limit (docs/src/tests.md, Time budget)" >&2
    [ "$status" != 0 ] || status=1
  elif [ "$total" -gt $((budget_warn * 60)) ]; then
    echo "test.sh: warning: $((total / 60)) minutes, past the ${budget_warn}-minute budget (docs/src/tests.md, Time budget)" >&2
  fi
  [ "$status" = 0 ] || echo "test.sh: failed (exit $status)" >&2
  exit "$status"
}
trap report EXIT

# Disk (docs/src/tests.md, "Disk"): CI's builds start from nothing, so cargo's incremental
# caches (half of target/debug) only take space; every cargo below and every nested one (the
# tests', install.sh's, `pip wheel`'s) inherits the setting, so they still share one build.
# Line tables only, not full debuginfo, for the same reason: the suite's backtraces and
# memcheck's reports still name files and lines, and the dev and test builds (target/debug,
# the aarch64 one) shrink by about half.
[ -z "${CI:-}" ] || export CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=line-tables-only
# A full disk fails a link midway with "No space left on device" (CI did, 5 minutes into the
# build): say so at once instead, with what the suite needs.
# NVIDIA's wheels are deleted once unpacked (scripts/fetch-cuda.py, INSTALLED): a cache an
# older checkout filled still holds them, so they go first, offline.
for arch in x86_64 aarch64 win_amd64; do python3 scripts/fetch-cuda.py --arch "$arch" --prune; done
disk_need_gb=10
disk_free_gb() { df -Pk target | awk 'NR == 2 { print int($4 / 1048576) }'; }
[ "$(disk_free_gb)" -ge "$disk_need_gb" ] || {
  echo "test.sh: $(disk_free_gb) GB free on the disk of target/; the suite needs about $disk_need_gb (docs/src/tests.md, Disk)" >&2
  exit 1
}

# The budget above is the book's: fail early if they no longer agree.
grep -q "a warning past $budget_warn minutes and a failure past $budget_fail" docs/src/tests.md || {
  echo "test.sh: docs/src/tests.md (Time budget) does not say $budget_warn and $budget_fail minutes" >&2
  exit 1
}

# Every stub, from the specs (codegen writes it): CUDA_STUBS_CRATES, CUDA_STUBS_WINDOWS, ...
source scripts/libraries.sh
# What CMakeLists.txt builds (`cuda_stubs_cargo`: install.sh, `pip wheel`), the same packages
# in the same order: on Linux every stub and compatibility crate, for Windows the DLL stubs.
linux_crates=() windows_crates=()
for c in "${CUDA_STUBS_CRATES[@]}" "${CUDA_STUBS_COMPAT_CRATES[@]}"; do linux_crates+=(-p "$c"); done
for c in "${CUDA_STUBS_WINDOWS_CRATES[@]}"; do windows_crates+=(-p "$c"); done

stage setup "Debian packages, rustup targets, mdbook (scripts/setup-machine.sh), for aarch64 too"
# One apt run for both lists; scripts/test-aarch64.sh's own call then finds everything.
scripts/setup-machine.sh test aarch64

# Network-bound: beside the compile stages. The Linux wheels first (the codegen check reads their
# headers), then the rest; each script is a no-op once its cache is complete.
background fetch-linux "NVIDIA's x86-64 wheels, Debian 11's glibc" \
  eval 'python3 scripts/fetch-cuda.py && python3 scripts/fetch-old-glibc.py >/dev/null'
background fetch-other "NVIDIA's win_amd64 and aarch64 wheels, Debian 11's aarch64 glibc" \
  eval 'python3 scripts/fetch-cuda.py --arch win_amd64 && python3 scripts/fetch-cuda.py --arch aarch64 &&
    python3 scripts/fetch-old-glibc.py --arch aarch64 >/dev/null'

stage lint "rustfmt; clippy for x86-64, Windows and aarch64; the loader's OS boundary"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
# The mock device: a cargo workspace of its own (stub-mock/Cargo.toml says why), in target/.
mock=(--manifest-path stub-mock/Cargo.toml)
cargo fmt "${mock[@]}" -- --check
cargo clippy "${mock[@]}" --target-dir target --quiet -- -D warnings
cargo clippy "${mock[@]}" --target-dir target --target x86_64-pc-windows-gnu --quiet -- -D warnings
# The Windows code paths: the loader's (stub-loader/src/os/windows/) and those of each DLL stub
# crate whose code tests the target in a cfg (scripts/cfg-crates.sh says why only those; the
# build stage compiles every DLL stub).
mapfile -t windows_cfg_crates < <(scripts/cfg-crates.sh stub-loader "${CUDA_STUBS_WINDOWS_CRATES[@]}")
cargo clippy --target x86_64-pc-windows-gnu --quiet "${windows_cfg_crates[@]}" -- -D warnings
# The aarch64 code paths: test-aarch64.sh's own clippy (--build runs it and the aarch64 builds).
# Only the loader's os/ tests the OS in a cfg (stub-loader/src/os/mod.rs says why).
if grep -rlE 'cfg!?\((.*)(windows|unix|target_os|target_family)' stub-loader/src | grep -v '/os/'; then
  echo "cfg on the OS outside stub-loader/src/os/ (above)" >&2
  exit 1
fi
python3 scripts/check-module-cycles.py stub-loader/src
python3 scripts/check-module-cycles.py stub-mock/src
# A stub crate holds no test (tests/ has them): `test = false` keeps `cargo test` and clippy's
# --all-targets from building each of them a second time, as a test harness of zero tests.
for crate in "${CUDA_STUBS_CRATE_DIRS[@]}"; do
  grep -qx 'test = false' "$crate/Cargo.toml" || {
    echo "$crate/Cargo.toml: no \`test = false\` in [lib] (see the stub crates' own)" >&2
    exit 1
  }
done

stage docs "mdbook build docs (no warning), links checked"
scripts/check-docs.sh

stage build "the workspace (debug: stubs, mocks, codegen), the release stubs, Windows and aarch64"
cargo build --workspace --quiet
cargo build --quiet "${mock[@]}" --target-dir target
# The release stubs, as CMakeLists.txt builds them: packaging.rs (install.sh), test-packaging.sh
# and test-example-python.sh (`pip wheel`) and main-job.sh find them fresh.
cargo build --release --locked --quiet "${linux_crates[@]}"
cargo build --release --locked --quiet "${mock[@]}" --target-dir target
# The DLL stubs, release only: test-packaging-windows.sh's wheel and the Windows tests
# (tests/src/wine.rs builds the same, the DLLs as shipped).
cargo build --release --locked --target x86_64-pc-windows-gnu --quiet "${windows_crates[@]}"
# The mock device's DLL beside them (tests/tests/windows_mock.rs; the win_amd64 wheel's bin/).
cargo build --release --locked --target x86_64-pc-windows-gnu --quiet "${mock[@]}" --target-dir target
# aarch64: clippy, the stubs, the test binaries and the wheel's release build; `--run` below
# runs them.
scripts/test-aarch64.sh --build

stage test "cargo test (the stubs: exports, SONAMEs, the real-library and mock suites, wine)"
join fetch-linux fetch-other
# Codegen's drift check beside it: the test stage leaves a core idle a quarter of its time (one
# wine, pip or cmake process; a test binary's last test), and the check, much of it reading
# NVIDIA's headers and libraries from disk, fills it. The debug build of the build stage: its
# dependencies (bindgen, syn) are optimised even there (Cargo.toml's [profile.dev.package."*"]),
# and it runs a library per core.
background codegen "beside test: drift check, regenerate from the headers, fail on any diff; no hand-kept list" \
  eval 'cargo run --quiet -p codegen -- --check && scripts/check-lists.sh'
cargo test --workspace --no-fail-fast
end_stage
join codegen

stage valgrind "the integration suite again, every scenario process that loads a stub under valgrind memcheck"
# Beside it, the aarch64 suites under qemu-user: both mostly wait on one emulated or
# instrumented process per test thread.
background aarch64 "beside valgrind" scripts/test-aarch64.sh --run
# `--workspace --test <name>...`: stubs-tests' integration tests (the workspace's only ones), resolved
# with the same features as `cargo test --workspace` above, so nothing is rebuilt (`-p
# stubs-tests` alone would unify fewer features, rebuild syn, stub-model and every test binary).
# Left out: the suites of the four largest math libraries, whose stubs are only the macro's
# generated forwarders and the loader's search, both under memcheck through every other
# library's suite (curand, cusparse, cutensor, nvjpeg, ...); under memcheck they spent ~10 of
# the stage's 35 minutes instrumenting NVIDIA's cuBLAS, cuBLASLt, cuSOLVER and cuFFT; likewise
# cuSOLVERMg's, cuDensityMat's, cuTensorNet's and cuStateVec's (136, 96, 73 and 68 s of the
# stage's 997 on 2026-12-07, loading those libraries and the cuBLAS, cuSOLVER and cuTENSOR beside
# them, whose stubs' paths the other suites take under memcheck); cuBLASMp's and cuSOLVERMp's
# too (generated forwarders as well; each scenario loads NVIDIA's cuBLAS, NCCL, cuSOLVER and
# their own 20 to 54 MB files, issue 49); cuFFTMp's (its 300 MB library and NVSHMEM's 50-190
# MB, a generated forwarder as cuFFT's). And the
# suites that start no scenario process (`Scenario`), which would only run again as they ran
# above: coverage and abi_coverage read ELF files (58 s here), glibc_floor runs its programs
# under Debian 11's loader, never under memcheck.
# Also left out: the kernel executor's suites (mock_kernels: 354k conformance results;
# mock_programs, mock_cooperative, mock_clusters, mock_textures), pure Rust computing on the CPU, whose C ABI paths mock_device and nvcc_launch
# take under memcheck too (the executor there ran ~50 times slower); stub_size and
# mock_profiles, which build release artifacts and read files; nvblas, whose NVIDIA library
# reads uninitialised memory in its own first-call setup (libnvblas.so.13, memcheck's report of
# 2026-12-07) and frees twice at exit now and then: its suite runs once, natively. And
# windows_mock: wine's processes never run under memcheck, and its Linux programs are
# mock_device's and a printf kernel's, whose paths mock_device takes under memcheck.
valgrind_skip=" cublas cublaslt cusolver cufft cufftmp cusolvermg cudensitymat cutensornet custatevec cublasmp cusolvermp coverage abi_coverage glibc_floor mock_kernels mock_programs mock_cooperative mock_clusters mock_textures stub_size mock_profiles nvblas windows_mock "
# Two test binaries at a time, not cargo's one after the other: each binary's last tests leave
# a core idle (one memcheck process of a slow scenario), 40 times over. The slowest start first
# (seconds under memcheck on 2 cores, 2026-12-02), so that no long binary starts last; a name
# missing from this list only runs later.
valgrind_first=" compat real_matrix abi_calls static_runtime nvjitlink hostile driver_cap cutensor load_topology ptx_newer_than_driver cudnn "
valgrind_tests=()
for name in $valgrind_first; do
  [ -f "tests/tests/$name.rs" ] || { echo "test.sh: valgrind_first names no suite: $name" >&2; exit 1; }
  valgrind_tests+=(--test "$name")
done
for test in tests/tests/*.rs; do
  name=$(basename "$test" .rs)
  [[ $valgrind_skip$valgrind_first == *" $name "* ]] || valgrind_tests+=(--test "$name")
done
# The binaries of `cargo test` above, in that order (nothing is rebuilt), run as cargo runs them
# (from the package's folder), two at a time, each one's output kept whole in its own log.
mapfile -t valgrind_bins < <(cargo test --workspace "${valgrind_tests[@]}" --no-run --quiet \
  --message-format=json | python3 scripts/test-binaries.py "${valgrind_tests[@]}")
[ "${#valgrind_bins[@]}" = $((${#valgrind_tests[@]} / 2)) ] || {
  echo "test.sh: cargo listed ${#valgrind_bins[@]} test binaries for $((${#valgrind_tests[@]} / 2)) suites" >&2
  exit 1
}
valgrind_logs=$PWD/$logs/valgrind
mkdir -p "$valgrind_logs"
valgrind_status=0
printf '%s\n' "${valgrind_bins[@]}" | (cd tests && STUBS_TESTS_VALGRIND=1 xargs -d '\n' -P 2 -I{} \
  sh -c 'log="$0/$(basename "$1" | sed "s/-[0-9a-f]*\$//").log"
    "$1" --test-threads=2 >"$log" 2>&1 || { echo "FAILED: $1" >>"$log"; exit 1; }' \
  "$valgrind_logs" {}) || valgrind_status=$?
cat "$valgrind_logs"/*.log
if [ "$valgrind_status" != 0 ]; then
  echo "test.sh: under memcheck, these suites failed (their logs above):" >&2
  grep -h '^FAILED: ' "$valgrind_logs"/*.log >&2
  exit 1
fi
end_stage
join aarch64

stage packaging "the wheel (pip, auditwheel) and the install-and-use recipes (README, docs/)"
background packaging-windows "beside packaging, the example, the main job" \
  scripts/test-packaging-windows.sh
scripts/test-packaging.sh

stage example "example/python: one extension wheel on 11.8, 12.9, 13.5 and none"
scripts/test-example-python.sh

stage main-job "the bundled example on 11.8, 12.9, 13.5 and none"
scripts/main-job.sh
end_stage
join packaging-windows
