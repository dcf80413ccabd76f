#!/usr/bin/env bash
# The win_amd64 wheel of cuda-stubs, cross-built on Linux and checked without Windows: run by
# scripts/test.sh (CI) after the Linux packaging test.
#
#   1. `pip wheel .` with CUDA_STUBS_CARGO_TARGET=x86_64-pc-windows-gnu and
#      _PYTHON_HOST_PLATFORM=win-amd64: cuda_stubs-<v>-py3-none-win_amd64.whl, its tag and its
#      exact file list (every Windows stub's DLL in bin/ and the mock device's cuda_stubs_mock.dll,
#      their import libraries in lib/, cuda_stubs.h and cuda_stubs_mock.h, the
#      CMake package, the license texts and NOTICE; no .so, no .pc), the DLLs' and import
#      libraries' contents;
#   2. a CMake project built with CMake's MinGW cross toolchain against the wheel's
#      cuda-stubs::nvrtc and ::cudart (CUDA 13 and CUDA 12 ABI: the imports objdump shows), run
#      under wine with no NVIDIA DLL anywhere: the stubs' "no library" codes; the properties
#      an MSVC project gets (stubs_<name>.lib), and the Linux-only switch refused;
#      the .lib files linked by lld-link (rustc's lld, MSVC's rules) into a program that runs;
#   3. the wheel's layout under wine: a program loading bin\stubs_nvrtc.dll by its full path
#      from a Lib\site-packages (as `cuda_stubs.status()` does with ctypes) binds a stand-in
#      nvrtc64_130_0.dll in the NVIDIA wheel folder beside it (nvidia\cu13\bin\x86_64);
#   4. python/cuda_stubs's Windows code paths, run by the Linux python3 from the unpacked wheel
#      with its platform check (`cuda_stubs._on_windows`) patched: lib_dir() is bin, implib_dir()
#      lib, library_path() the DLLs, status() loads each DLL by full path (ctypes.CDLL patched
#      too), --ldflags gives MinGW flags that link (checked with the MinGW compiler), and
#      --pkgconfigdir fails.
#
# No Windows CPython runs here: PyPI has none to install (`portable-python` downloads its
# builds at run time from outside the registry, which this workplace cannot reach; PEP 711
# "pybi" interpreters are not on PyPI), so `python -m cuda_stubs` itself never runs on Windows
# in CI; step 3 exercises what it loads.
#
# Needs (scripts/setup-machine.sh test installs them): the x86_64-pc-windows-gnu Rust target,
# gcc-mingw-w64-x86-64 (compiler, dlltool, objdump, strip), llvm (llvm-dlltool, llvm-nm),
# wine64 (/usr/lib/wine/wine64), cmake; and PyPI for scikit-build-core.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/test-packaging-windows
# Every stub, from the specs (codegen writes it): which have a Windows DLL, their CMake targets.
source scripts/libraries.sh
# wine's prefix (its C: drive, about 5 s to create) outlives a run.
export WINEPREFIX=$root/target/wine-packaging
wine=/usr/lib/wine/wine64
mingw=x86_64-w64-mingw32
fail() { echo "test-packaging-windows: $*" >&2; exit 1; }

missing=()
rustup target list --installed | grep -x x86_64-pc-windows-gnu >/dev/null || missing+=("rustup target x86_64-pc-windows-gnu")
for tool in "$mingw-gcc" "$mingw-dlltool" "$mingw-objdump" llvm-dlltool llvm-nm cmake; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -x "$wine" ] || missing+=("$wine")
[ ${#missing[@]} -eq 0 ] || fail "missing ${missing[*]} (scripts/setup-machine.sh test installs them)"

# (Pipelines into grep let it read everything, `>/dev/null` rather than -q: with pipefail a
# producer killed by SIGPIPE when grep -q stops early fails the pipeline.)
rm -rf "$work" && mkdir -p "$work"
# A Windows program under wine, in a clean environment (no CUDA_PATH, CONDA_PREFIX, VIRTUAL_ENV
# or CUDA_STUBS_* reaches the stubs' search): its stdout without the CRs of Windows' text mode,
# wine's own messages in wine.log.
run_wine() {
  env -i HOME="$HOME" PATH="$PATH" WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all "$wine" "$@" 2>>"$work/wine.log" \
    | tr -d '\r'
}

echo "== pip wheel for win_amd64"
CUDA_STUBS_CARGO_TARGET=x86_64-pc-windows-gnu _PYTHON_HOST_PLATFORM=win-amd64 \
  python3 -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/dist" . >"$work/pip.log" 2>&1 \
  || { cat "$work/pip.log" >&2; fail "pip wheel failed"; }
wheel=$(ls "$work"/dist/*.whl)
[ "$(basename "$wheel")" = cuda_stubs-0.1.0-py3-none-win_amd64.whl ] || fail "wheel $(basename "$wheel")"
site=$work/win/Lib/site-packages
mkdir -p "$site"
python3 - "$wheel" "$site" "${CUDA_STUBS_WINDOWS[*]}" <<'EOF'
import sys, zipfile
wheel, site, windows = sys.argv[1:]
z = zipfile.ZipFile(wheel)
tags = [l for l in z.read("cuda_stubs-0.1.0.dist-info/WHEEL").decode().splitlines() if l.startswith("Tag:")]
assert tags == ["Tag: py3-none-win_amd64"], tags
sys.path.insert(0, "python")
from cuda_stubs._libraries import WINDOWS_LIBRARIES
assert [dll[: -len(".dll")] for dll in WINDOWS_LIBRARIES.values()] == windows.split(), WINDOWS_LIBRARIES
# The package's Python modules and CMake files are the source tree's (no hand-kept copy of the list),
# plus what CMake generates at install (the version file).
import pathlib
want = {f"cuda_stubs/{p.name}" for p in pathlib.Path("python/cuda_stubs").glob("*.py")}
want |= {"cuda_stubs/include/cuda_stubs.h", "cuda_stubs/include/cuda_stubs_mock.h"}
# The mock device beside the DLL stubs, which bind it from their own folder under CUDA_STUBS_MOCK.
want |= {"cuda_stubs/bin/cuda_stubs_mock.dll"}
want |= {f"cuda_stubs/lib/cmake/cuda-stubs/{p.name}" for p in pathlib.Path("packaging/cmake").glob("*.cmake")}
want |= {"cuda_stubs/lib/cmake/cuda-stubs/cuda-stubsConfigVersion.cmake"}
for dll in WINDOWS_LIBRARIES.values():
    stem = dll[: -len(".dll")]
    want |= {f"cuda_stubs/bin/{dll}", f"cuda_stubs/lib/{stem}.lib", f"cuda_stubs/lib/lib{stem}.dll.a"}
want |= {"cuda_stubs/lib/stubs_cudart_abi12.lib", "cuda_stubs/lib/libstubs_cudart_abi12.dll.a"}
want |= {f"cuda_stubs-0.1.0.dist-info/{f}" for f in ["METADATA", "WHEEL", "RECORD"]}
# pyproject.toml's license-files (PEP 639).
want |= {f"cuda_stubs-0.1.0.dist-info/licenses/{f}" for f in ["LICENSE-MIT", "LICENSE-APACHE", "NOTICE"]}
have = set(z.namelist())
assert have == want, f"missing {sorted(want - have)}, unexpected {sorted(have - want)}"
z.extractall(site)
print("\n".join(sorted(have)))
EOF
pkg=$site/cuda_stubs
for dll in "$pkg"/bin/*.dll; do
  "$mingw-objdump" -f "$dll" | grep "file format pei-x86-64" >/dev/null || fail "$dll is not a PE32+ x86-64 file"
  # Stripped at install: no COFF symbol table left.
  if "$mingw-objdump" -t "$dll" | grep "^\[" >/dev/null; then fail "$dll kept its symbol table"; fi
done
"$mingw-objdump" -p "$pkg/bin/stubs_nvrtc.dll" | grep -E "^\s+\[ *[0-9]+\] cuda_stubs_nvrtc_status$" >/dev/null \
  || fail "stubs_nvrtc.dll does not export cuda_stubs_nvrtc_status"
llvm-nm "$pkg/lib/stubs_nvrtc.lib" 2>/dev/null | grep " T __imp_nvrtcVersion$" >/dev/null \
  || fail "stubs_nvrtc.lib has no __imp_nvrtcVersion"
# The CUDA 12 view: the plain name is an alias of the CUDA 12 export.
llvm-nm "$pkg/lib/stubs_cudart_abi12.lib" 2>/dev/null | grep " W cudaMemAdvise$" >/dev/null \
  || fail "stubs_cudart_abi12.lib: no alias cudaMemAdvise"

echo "== CMake, MinGW: a project linking cuda-stubs::nvrtc and ::cudart, run under wine"
consumer=$work/consumer
mkdir -p "$consumer"
cat >"$consumer/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(consumer LANGUAGES C)
find_package(cuda-stubs CONFIG REQUIRED)
add_executable(prog prog.c)
target_link_libraries(prog PRIVATE cuda-stubs::nvrtc cuda-stubs::cudart)
# The loader finds a program's DLLs beside it.
add_custom_command(TARGET prog POST_BUILD
  COMMAND "${CMAKE_COMMAND}" -E copy_if_different $<TARGET_RUNTIME_DLLS:prog> $<TARGET_FILE_DIR:prog>
  COMMAND_EXPAND_LISTS)
EOF
# No CUDA headers: the few prototypes it calls (cudaMemAdvise's as CUDA 12 declares it; the
# import library decides which export it binds).
cat >"$consumer/prog.c" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include "cuda_stubs.h"
int nvrtcVersion(int *major, int *minor);
int cudaRuntimeGetVersion(int *version);
int cudaMemAdvise(const void *ptr, size_t count, int advice, int device);
int main(void) {
  int major = 0, minor = 0, version = 0;
  printf("nvrtcVersion %d\n", nvrtcVersion(&major, &minor));
  printf("cudaRuntimeGetVersion %d\n", cudaRuntimeGetVersion(&version));
  printf("cudaMemAdvise %d\n", cudaMemAdvise(NULL, 0, 0, 0));
  cuda_stubs_status s;
  cuda_stubs_nvrtc_status(&s);
  printf("nvrtc bound=%d: %s\n", s.bound, s.message ? s.message : "(null)");
  return 0;
}
EOF
# The names prog.exe imports from one DLL (objdump -p: "<vma> <hint> <name>" under "DLL Name:").
from() { awk -v dll="$1" '/DLL Name:/ {on = ($3 == dll); next} on && NF == 3 && $1 ~ /^[0-9a-f]+$/ {print $3}' <<<"$imports" | sort | tr '\n' ' '; }
for abi in 13 12; do
  build=$consumer/build$abi
  cmake -S "$consumer" -B "$build" -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER="$mingw-gcc" \
    -Dcuda-stubs_DIR="$pkg/lib/cmake/cuda-stubs" -DCUDA_STUBS_CUDART_ABI=$abi >"$build.log" 2>&1 \
    || { cat "$build.log" >&2; fail "configure (ABI $abi)"; }
  cmake --build "$build" >>"$build.log" 2>&1 || { cat "$build.log" >&2; fail "build (ABI $abi)"; }
  imports=$("$mingw-objdump" -p "$build/prog.exe")
  dlls=$(grep "DLL Name:" <<<"$imports" | awk '{print $3}' | sort | tr '\n' ' ')
  echo "ABI $abi: prog.exe imports $dlls"
  grep -q "stubs_cudart.dll stubs_nvrtc.dll" <<<"$dlls" || fail "ABI $abi: imports $dlls"
  if grep -qiE "cudart64|nvrtc64|nvcuda" <<<"$dlls"; then fail "ABI $abi: imports an NVIDIA DLL: $dlls"; fi
  echo "  stubs_nvrtc.dll: $(from stubs_nvrtc.dll)"
  echo "  stubs_cudart.dll: $(from stubs_cudart.dll)"
  [ "$(from stubs_nvrtc.dll)" = "cuda_stubs_nvrtc_status nvrtcVersion " ] || fail "ABI $abi: nvrtc imports"
  if [ $abi = 13 ]; then advise=cudaMemAdvise; else advise=__cuda_stubs_abi12_cudaMemAdvise; fi
  [ "$(from stubs_cudart.dll)" = "$(printf '%s\n' "$advise" cudaRuntimeGetVersion | sort | tr '\n' ' ')" ] \
    || fail "ABI $abi: cudart imports $(from stubs_cudart.dll)"
  [ -f "$build/stubs_nvrtc.dll" ] && [ -f "$build/stubs_cudart.dll" ] || fail "ABI $abi: DLLs not copied"
  out=$(cd "$build" && run_wine prog.exe) || fail "ABI $abi: prog.exe failed under wine: $out"
  echo "$out" | sed 's/^/  wine: /'
  # No NVIDIA DLL: NVRTC_ERROR_INTERNAL_ERROR (11), cudaErrorStubLibrary (34), also for the CUDA
  # 12 export; the status lists the Windows search.
  grep -qx "nvrtcVersion 11" <<<"$out" || fail "ABI $abi: $out"
  grep -qx "cudaRuntimeGetVersion 34" <<<"$out" || fail "ABI $abi: $out"
  grep -qx "cudaMemAdvise 34" <<<"$out" || fail "ABI $abi: $out"
  grep -q "^nvrtc bound=0: .*not found (searched nvrtc64_130_0.dll" <<<"$out" || fail "ABI $abi: $out"
done

echo "== CMake: what an MSVC project gets (no MinGW compiler: the .lib import libraries)"
msvc=$work/msvc-properties
mkdir -p "$msvc"
cat >"$msvc/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.18)
project(properties NONE)
find_package(cuda-stubs CONFIG REQUIRED)
foreach(target ${TARGETS})
  if(TARGET cuda-stubs::${target})
    get_target_property(dll cuda-stubs::${target} IMPORTED_LOCATION)
    get_target_property(implib cuda-stubs::${target} IMPORTED_IMPLIB)
    file(RELATIVE_PATH dll "${cuda-stubs_DIR}/../../.." "${dll}")
    file(RELATIVE_PATH implib "${cuda-stubs_DIR}/../../.." "${implib}")
    message(STATUS "${target} ${dll} ${implib}")
  else()
    message(STATUS "${target} none")
  endif()
endforeach()
if(SWITCH)
  cuda_stubs_use_for_cuda_toolkit()
endif()
EOF
for abi in 13 12; do
  out=$(cmake -S "$msvc" -B "$msvc/build$abi" -DCMAKE_SYSTEM_NAME=Windows \
    -Dcuda-stubs_DIR="$pkg/lib/cmake/cuda-stubs" -DCUDA_STUBS_CUDART_ABI=$abi \
    -DTARGETS="$(IFS=';'; echo "${CUDA_STUBS_CMAKE_TARGETS[*]}")" | sed -n 's/^-- //p')
  if [ $abi = 13 ]; then cudart=stubs_cudart; else cudart=stubs_cudart_abi12; fi
  # Each spec's target: its DLL and import library where it has a Windows stub, else none.
  want=$(for i in "${!CUDA_STUBS_LIBRARIES[@]}"; do
    lib=${CUDA_STUBS_LIBRARIES[$i]} target=${CUDA_STUBS_CMAKE_TARGETS[$i]}
    if [[ " ${CUDA_STUBS_WINDOWS[*]} " != *" stubs_$lib "* ]]; then echo "$target none"
    elif [ "$lib" = cudart ]; then echo "$target bin/stubs_$lib.dll lib/$cudart.lib"
    else echo "$target bin/stubs_$lib.dll lib/stubs_$lib.lib"; fi
  done)
  [ "$(grep -v "^Configuring\|^Generating\|^Build files" <<<"$out")" = "$want" ] || fail "MSVC properties (ABI $abi): $out"
  echo "  ABI $abi: cuda-stubs::cudart bin/stubs_cudart.dll lib/$cudart.lib"
done
# An install that lost a file: the package is not found, and says which file and why.
broken=$work/broken
cp -a "$pkg" "$broken" && rm "$broken/lib/stubs_nvrtc.lib"
if out=$(cmake -S "$msvc" -B "$msvc/broken" -DCMAKE_SYSTEM_NAME=Windows \
    -Dcuda-stubs_DIR="$broken/lib/cmake/cuda-stubs" 2>&1); then
  fail "configured without stubs_nvrtc.lib"
fi
# (CMake wraps the message: compared with its whitespace folded.)
tr -s ' \n' '  ' <<<"$out" | grep "stubs_nvrtc.lib is missing (the Windows stubs: the win_amd64 wheel" >/dev/null \
  || fail "missing import library: $out"
if out=$(cmake -S "$msvc" -B "$msvc/switch" -DCMAKE_SYSTEM_NAME=Windows -DSWITCH=ON \
    -Dcuda-stubs_DIR="$pkg/lib/cmake/cuda-stubs" 2>&1); then
  fail "cuda_stubs_use_for_cuda_toolkit() configured on Windows"
fi
grep -q "cuda_stubs_use_for_cuda_toolkit() is not available on Windows" <<<"$out" || fail "switch: $out"

echo "== lld-link (MSVC's command line and import-library rules): the .lib files link"
# No MSVC here: rustc's own lld in its link.exe flavour reads MSVC import libraries as link.exe
# does, weak aliases included (stubs_cudart_abi12.lib's `cudaMemAdvise`). The object comes from
# MinGW's compiler without a C runtime (an entry point of its own, ExitProcess from kernel32).
lld=$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/rust-lld
cat >"$work/msvc_link.c" <<'EOF2'
#include <stddef.h>
int cudaRuntimeGetVersion(int *version);
int cudaMemAdvise(const void *ptr, size_t count, int advice, int device);
int nvrtcVersion(int *major, int *minor);
__declspec(dllimport) void __stdcall ExitProcess(unsigned code);
void start(void) {
  int v = 0, major = 0, minor = 0;
  /* No NVIDIA DLL under wine: 34 + 34 + 11 = 79. */
  ExitProcess((unsigned)(cudaRuntimeGetVersion(&v) + cudaMemAdvise(NULL, 0, 0, 0) +
                         nvrtcVersion(&major, &minor)));
}
EOF2
"$mingw-gcc" -c -O1 -ffreestanding -fno-asynchronous-unwind-tables -o "$work/msvc_link.o" "$work/msvc_link.c"
for abi in 13 12; do
  if [ $abi = 13 ]; then cudart=stubs_cudart advise=cudaMemAdvise; else cudart=stubs_cudart_abi12 advise=__cuda_stubs_abi12_cudaMemAdvise; fi
  dir=$work/msvc$abi && mkdir -p "$dir"
  "$lld" -flavor link /nologo /entry:start /subsystem:console /nodefaultlib /out:"$dir/prog.exe" \
    "$work/msvc_link.o" "$pkg/lib/$cudart.lib" "$pkg/lib/stubs_nvrtc.lib" \
    "/usr/$mingw/lib/libkernel32.a" || fail "lld-link (ABI $abi)"
  imports=$("$mingw-objdump" -p "$dir/prog.exe")
  [ "$(from stubs_cudart.dll)" = "$(printf '%s\n' "$advise" cudaRuntimeGetVersion | sort | tr '\n' ' ')" ] \
    || fail "lld-link (ABI $abi): cudart imports $(from stubs_cudart.dll)"
  cp "$pkg"/bin/stubs_cudart.dll "$pkg"/bin/stubs_nvrtc.dll "$dir/"
  rc=0; (cd "$dir" && run_wine prog.exe >/dev/null) || rc=$?
  [ $rc = 79 ] || fail "lld-link (ABI $abi): prog.exe exited $rc, not 34 + 34 + 11"
  echo "  ABI $abi: $cudart.lib: imports $(from stubs_cudart.dll)from stubs_cudart.dll; exit $rc under wine"
done

echo "== wine: the wheel's bin\\stubs_nvrtc.dll binds NVIDIA's wheel layout beside it"
# A stand-in for nvidia-cuda-nvrtc's DLL (its version probe is all the search calls).
fake=$site/nvidia/cu13/bin/x86_64
mkdir -p "$fake"
printf '%s\n' '__declspec(dllexport) int nvrtcVersion(int *major, int *minor) { *major = 13; *minor = 5; return 0; }' >"$work/fake_nvrtc.c"
"$mingw-gcc" -shared -o "$fake/nvrtc64_130_0.dll" "$work/fake_nvrtc.c"
cat >"$work/status.c" <<'EOF'
/* What cuda_stubs.status() does on Windows: load the stub by its full path, ask it. */
#include <stdio.h>
#include <windows.h>
#include "cuda_stubs.h"
int main(int argc, char **argv) {
  HMODULE stub = argc > 1 ? LoadLibraryA(argv[1]) : NULL;
  if (!stub) { printf("LoadLibrary failed: %lu\n", GetLastError()); return 1; }
  int (*version)(int *, int *) = (int (*)(int *, int *))GetProcAddress(stub, "nvrtcVersion");
  int (*status)(cuda_stubs_status *) = (int (*)(cuda_stubs_status *))GetProcAddress(stub, "cuda_stubs_nvrtc_status");
  int major = 0, minor = 0;
  int rc = version(&major, &minor);
  printf("nvrtcVersion %d %d.%d\n", rc, major, minor);
  cuda_stubs_status s;
  status(&s);
  printf("bound=%d version=%d found_by=%s\npath=%s\n", s.bound, s.version,
         s.found_by ? s.found_by : "-", s.path ? s.path : "-");
  return 0;
}
EOF
"$mingw-gcc" -o "$work/status.exe" "$work/status.c" -I"$pkg/include"
out=$(cd "$work" && run_wine status.exe "Z:$pkg/bin/stubs_nvrtc.dll") || fail "status.exe: $out"
echo "$out" | sed 's/^/  wine: /'
grep -qx "nvrtcVersion 0 13.5" <<<"$out" || fail "layout: $out"
grep -qx "bound=1 version=13050 found_by=wheel layout beside the stub" <<<"$out" || fail "layout: $out"
[[ "$out" == *'path=Z:'*'\Lib\site-packages\nvidia\cu13\bin\x86_64\nvrtc64_130_0.dll'* ]] \
  || fail "layout: $out"

echo "== python/cuda_stubs: the Windows code paths (platform check patched) on the unpacked wheel"
python3 - "$pkg" "$mingw-gcc" "$consumer/prog.c" "$work/ldflags.exe" "${CUDA_STUBS_WINDOWS[*]}" \
  "${CUDA_STUBS_LIBRARIES[*]}" "${CUDA_STUBS_LINK[*]}" "${CUDA_STUBS_LINK_ABI12[*]}" <<'EOF'
import contextlib, ctypes, io, os, shlex, subprocess, sys
pkg, cc, source, exe, windows, libraries, link, link12 = sys.argv[1:]
sys.path.insert(0, os.path.dirname(pkg))
import cuda_stubs
from cuda_stubs.__main__ import main
assert os.path.realpath(cuda_stubs.__file__) == os.path.realpath(f"{pkg}/__init__.py"), cuda_stubs.__file__
cuda_stubs._on_windows = lambda: True
# The specs' Windows stubs (scripts/libraries.sh), in spec order.
names = {stem[len("stubs_"):]: f"{stem}.dll" for stem in windows.split()}
assert cuda_stubs.stubs() == names, cuda_stubs.stubs()
assert cuda_stubs.lib_dir() == f"{pkg}/bin", cuda_stubs.lib_dir()
assert cuda_stubs.implib_dir() == f"{pkg}/lib", cuda_stubs.implib_dir()
assert os.path.isfile(f"{cuda_stubs.cmake_dir()}/cuda-stubsConfig.cmake")
assert os.path.isfile(f"{cuda_stubs.include_dir()}/cuda_stubs.h")
# The mock device beside the DLL stubs (`--mock-profiles` runs it in a child process).
from cuda_stubs import _mock
assert str(_mock.mock_library()) == f"{pkg}/bin/cuda_stubs_mock.dll", _mock.mock_library()
for name, dll in names.items():
    assert cuda_stubs.library_path(name) == f"{pkg}/bin/{dll}"
    assert os.path.isfile(cuda_stubs.library_path(name)), name
# A library with no Windows stub (NCCL: NVIDIA ships no Windows build).
for other in [lib for lib in libraries.split() if lib not in names]:
    try:
        cuda_stubs.library_path(other)
        raise AssertionError(f"library_path({other!r}) on Windows")
    except KeyError as e:
        assert ", ".join(names) in str(e), e
try:
    cuda_stubs.pkgconfig_dir()
    raise AssertionError("pkgconfig_dir() on Windows")
except OSError as e:
    assert "no pkg-config files on Windows" in str(e), e

# status(): each DLL loaded by its full path (CDLL stands in: Linux cannot load a PE file).
loaded = []
class FakeDll:
    def __init__(self, path):
        loaded.append(path)
    def __getattr__(self, export):
        name = [n for n, d in names.items() if loaded[-1].endswith(d)][0]
        # The status and the driver status, each from its own DLL.
        assert export in (f"cuda_stubs_{name}_status", f"cuda_stubs_{name}_driver_status"), export
        return lambda out: 0
cuda_stubs.ctypes.CDLL = FakeDll
s = cuda_stubs.status()
assert loaded == [f"{pkg}/bin/{dll}" for dll in names.values()], loaded
assert list(s) == list(names) and all(v["bound"] is False for v in s.values()), s

# python -m cuda_stubs.
def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue().strip(), err.getvalue()
assert cli("--libdir") == (0, f"{pkg}/bin", ""), cli("--libdir")
assert cli("--implibdir") == (0, f"{pkg}/lib", ""), cli("--implibdir")
assert cli("--cmakedir") == (0, f"{pkg}/lib/cmake/cuda-stubs", ""), cli("--cmakedir")
rc, out, err = cli("--pkgconfigdir")
assert rc == 2 and "no pkg-config files on Windows" in err, (rc, out, err)
lib = f"{pkg}/lib"
# The -l names of the stubs with a DLL, each ABI's (scripts/libraries.sh's lists, in order).
def ldflags(names_of_abi):
    stems = windows.split()
    return " ".join([f"-L{lib}"] + [f"-l{n}" for n in names_of_abi.split()
                                     if n in stems or n.removesuffix("_abi12") in stems])
want13, want12 = ldflags(link), ldflags(link12)
assert cli("--ldflags") == (0, want13, ""), cli("--ldflags")
assert cli("--ldflags", "--abi", "12") == (0, want12, ""), cli("--ldflags", "--abi", "12")
print("--libdir", cli("--libdir")[1])
print("--ldflags --abi 12", want12)
# The MinGW flags link: GNU ld finds lib<name>.dll.a; the CUDA 12 ABI imports the CUDA 12 export.
subprocess.run([cc, "-o", exe, source, f"-I{cuda_stubs.include_dir()}", *shlex.split(want12)], check=True)
EOF
"$mingw-objdump" -p "$work/ldflags.exe" | grep "__cuda_stubs_abi12_cudaMemAdvise" >/dev/null \
  || fail "--ldflags --abi 12 did not link the CUDA 12 export"
echo "test-packaging-windows: ok"
