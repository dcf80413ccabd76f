#!/usr/bin/env bash
# GPU proof of the compatibility folder (issue 31; docs/src/compat.md): a binary built against
# CUDA 12.9's headers and linked against NVIDIA's libcudart.so.12, run where the only runtime is
# CUDA 13's, through lib/cuda-stubs-compat/libcudart.so.12. Needs a GPU, driver 580+, CUDA 13.0
# (its lib64), gcc, and a Python environment with PyTorch cu13; nothing is downloaded.
#
#   tests/gpu/compat.sh WHEEL_DIR INC12 CUDART12 [CUDA13_LIB]
#
#   WHEEL_DIR   holds the cuda-stubs wheel of this tree (`pip wheel --no-deps -w DIR .`, or
#               target/test-packaging/dist after scripts/test-packaging.sh)
#   INC12       colon-separated include folders of CUDA 12.9's cuda_runtime_api.h and the
#               crt/ headers it includes (layout.json "include" of cuda-12: the
#               nvidia-cuda-runtime-cu12 and nvidia-cuda-nvcc-cu12 wheels' include folders)
#   CUDART12    NVIDIA's libcudart.so.12 (that wheel's), only to link against: it is not used at
#               run time, and must not be on any search path then
#   CUDA13_LIB  the CUDA 13 runtime's folder (default /usr/local/cuda/lib64)
#
# 1. tests/gpu/abi_versions.c built with gcc against the 12.9 headers and linked against
#    NVIDIA's libcudart.so.12 (libgpu12.so: DT_NEEDED libcudart.so.12, cudaMemAdvise@libcudart.so.12);
# 2. a plain program linking it, LD_LIBRARY_PATH=<compat folder>:<CUDA13_LIB>: the GPU checks
#    pass, exactly one real libcudart mapped (CUDA 13's);
# 3. the same library loaded next to PyTorch cu13 after cuda_stubs.compat.enable()
#    (tests/gpu/compat_torch.py), torch imported before and after enable().
# Every check prints PASS/FAIL; exit 1 if any failed.
set -u
if [ $# -lt 3 ]; then
  sed -n '2,28p' "$0" >&2
  exit 2
fi
wheels=$1 inc12=$2 rt12=$3 lib13=${4:-/usr/local/cuda/lib64}
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
incs() { local IFS=:; for d in $1; do printf -- '-I%s ' "$d"; done; }

echo "== install the cuda-stubs wheel beside torch (offline)"
"$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || exit 1
"$py" -m pip install -q --no-index --no-deps --force-reinstall "$wheels"/cuda_stubs-*.whl 2>&1 | tail -2
"$py" -c 'import cuda_stubs' 2>/dev/null ||
  "$py" -m pip install -q --no-index --no-deps --force-reinstall --break-system-packages "$wheels"/cuda_stubs-*.whl
compat=$("$py" -m cuda_stubs --compatdir) || exit 1
echo "compat folder: $compat"; ls -l "$compat"

echo "== build against CUDA 12.9 headers, linked against NVIDIA's libcudart.so.12"
# shellcheck disable=SC2046
gcc -shared -fPIC -O1 $(incs "$inc12") -o "$out/libgpu12.so" "$here/abi_versions.c" "$rt12" || exit 1
gcc -o "$out/prog12" "$here/compat_main.c" -L"$out" -lgpu12 -Wl,-rpath,"$out" -Wl,--allow-shlib-undefined || exit 1
readelf -d "$out/libgpu12.so" | grep NEEDED
echo "imports: $(readelf --dyn-syms -W "$out/libgpu12.so" | grep -oE 'cuda(MemAdvise|GetDeviceProperties_v2|StreamGetCaptureInfo_v2)@[a-z.0-9]+' | sort -u | tr '\n' ' ')"

echo "== plain program: LD_LIBRARY_PATH=$compat:$lib13"
LD_LIBRARY_PATH=$compat:$lib13 CUDA_STUBS_DEBUG=1 "$out/prog12" > "$out/stdout" 2> "$out/log"; rc=$?
cat "$out/stdout"
grep -E "bound|compatibility library" "$out/log" | head -5
if [ $rc != 0 ]; then status=1; echo "FAIL plain program rc=$rc"; tail -5 "$out/log"; fi
real=$(grep '^mapped ' "$out/stdout" | grep -vc /cuda-stubs-compat/)
if [ "$real" = 1 ]; then echo "PASS one real libcudart"; else echo "FAIL $real real libcudart"; status=1; fi

for order in before after; do
  echo "== next to PyTorch cu13, torch imported $order enable()"
  "$py" "$here/compat_torch.py" "$out/libgpu12.so" "$order" || status=1
done
[ $status = 0 ] && echo "ALL PASS" || echo "SOME FAILED"
exit $status
