#!/usr/bin/env bash
# GPU proof of the cuDNN stub: tests/gpu/cudnn_conv.c (a convolution forward with cuDNN's legacy
# API, two algorithms, then a bias and ReLU, each checked on the host) built against NVIDIA's
# cuDNN and the machine's CUDA headers three times: linked normally (libcudnn.so.9, libcudart),
# linked to the stubs (-lstubs_cudnn -lstubs_cudart), and linked by NVIDIA's link names through
# the stubs' link folder the way cudnn-frontend's CUDNN::cudnn_all links (-lcudnn and every
# sub-library, -lcudart, --no-as-needed). All three run on the machine's CUDA and the given cuDNN
# and must print the same result lines; the two stub builds must need no NVIDIA soname.
#
#   tests/gpu/cudnn.sh PREFIX OUT [CUDNN_DIR]
#
#   PREFIX     `scripts/install.sh --prefix PREFIX` (libstubs_cudnn.so, libstubs_cudart.so,
#              lib/cuda-stubs-link/abi13/)
#   OUT        a folder for the programs and their output
#   CUDNN_DIR  NVIDIA's cuDNN 9 of the machine's CUDA major, with include/cudnn.h and
#              lib/libcudnn.so.9 and its sub-libraries: a wheel's folder (`pip install
#              nvidia-cudnn-cu13`: site-packages/nvidia/cudnn); by default the one in
#              /opt/torch/.venv (PyTorch cu13's), else the one `import nvidia.cudnn` finds
#
# The stub builds bind cuDNN through CUDA_STUBS_CUDNN_PATH and must report the CUDA release the
# cuDNN was built with (cudnnGetCudartVersion), the machine's runtime's major (one release per
# process), after loading its libcudnn_graph.so.9.
set -u
if [ $# -lt 2 ]; then
  sed -n '2,24p' "$0" >&2
  exit 2
fi
P=$1 out=$2
cudnn=${3:-}
if [ -z "$cudnn" ]; then
  for d in /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn; do [ -d "$d" ] && cudnn=$d; done
fi
if [ -z "$cudnn" ]; then
  cudnn=$(python3 -c 'import nvidia.cudnn, os; print(os.path.dirname(nvidia.cudnn.__file__) if nvidia.cudnn.__file__ else list(nvidia.cudnn.__path__)[0])')
fi
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
[ -f "$cudnn/include/cudnn.h" ] && [ -f "$cudnn/lib/libcudnn.so.9" ] \
  || { echo "no include/cudnn.h and lib/libcudnn.so.9 under $cudnn" >&2; exit 2; }
link=$P/lib/cuda-stubs-link/abi13
echo "== cuDNN: $cudnn ($(grep -E '^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ' "$cudnn/include/cudnn_version.h" | awk '{print $3}' | paste -sd.))"
echo "== its sub-libraries: $(cd "$cudnn/lib" && ls libcudnn_*.so.9 | tr '\n' ' ')"
for torch in /opt/torch/.venv/lib/python3*/site-packages/torch/lib/libtorch_cuda.so; do
  [ -f "$torch" ] && echo "== PyTorch links: $(readelf -d "$torch" | grep -oE 'NEEDED.*\[libcudnn[^]]*\]' | grep -oE 'libcudnn[^]]*' | tr '\n' ' ')"
done
cc_flags=(-std=c11 -O1 "$here/cudnn_conv.c" -I"$cudnn/include" -I"$cuda/include")
gcc "${cc_flags[@]}" -o "$out/cudnn_normal" -L"$cudnn/lib" -l:libcudnn.so.9 \
  -L"$cuda/lib64" -lcudart -lm -Wl,-rpath,"$cudnn/lib" -Wl,-rpath,"$cuda/lib64" || exit 1
gcc "${cc_flags[@]}" -o "$out/cudnn_stub" -L"$P/lib" -lstubs_cudnn -lstubs_cudart -lm \
  -Wl,-rpath,"$P/lib" || exit 1
gcc "${cc_flags[@]}" -o "$out/cudnn_names" -L"$link" -Wl,--no-as-needed -lcudnn -lcudnn_graph \
  -lcudnn_engines_runtime_compiled -lcudnn_ops -lcudnn_cnn -lcudnn_adv -lcudnn_engines_precompiled \
  -lcudnn_heuristic -lcudart -Wl,--as-needed -lm -Wl,-rpath,"$P/lib" || exit 1
status=0
for exe in cudnn_normal cudnn_stub cudnn_names; do
  needed=$(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr -d '[]' | tr '\n' ' ')
  echo "== $exe: $needed"
  if [ "$exe" != cudnn_normal ] && echo " $needed" | grep -qE ' lib(cudnn|cudart)'; then
    echo "FAIL $exe needs an NVIDIA soname: $needed"
    status=1
  fi
  CUDA_STUBS_CUDNN_PATH=$cudnn/lib/libcudnn.so.9 CUDA_STUBS_DEBUG=1 "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(cudnn|cudart)\]: (bound|loaded|cudnnGetCudartVersion|the process has)' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
for exe in cudnn_stub cudnn_names; do
  if ! diff <(grep -E 'PASS|FAIL|cudnnGetVersion|output' "$out/cudnn_normal.out") \
            <(grep -E 'PASS|FAIL|cudnnGetVersion|output' "$out/$exe.out"); then
    echo "FAIL $exe printed other results than the normal build"
    status=1
  fi
  grep -q '^cuda-stubs\[cudnn\]: bound ' "$out/$exe.err" || { echo "FAIL $exe: the stub bound no cuDNN"; status=1; }
done
[ $status = 0 ] && echo "cuDNN GPU PROOF: ALL PASS" || echo "cuDNN GPU PROOF: SOME FAILED"
exit $status
