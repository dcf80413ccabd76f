#!/usr/bin/env bash
# GPU proof of the example wheel next to PyTorch (needs a GPU and a Python environment with a
# CUDA build of PyTorch from NVIDIA's wheels):
#
#   tests/gpu/torch_demo.sh WHEEL_DIR
#
# WHEEL_DIR holds the cuda-stubs and cuda-stubs-example wheels, built on any machine
# (scripts/test-example-python.sh leaves them in target/test-example-python/dist). They are
# installed offline into the site-packages that holds torch, and tests/gpu/torch_demo.py runs in
# both import orders: the extension's kernel scales a torch tensor in place and /proc/self/maps
# holds exactly one libcudart.
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))') || exit 1
echo "$("$py" --version), torch in $site"
"$py" -m pip install -q --no-index --no-deps "$1"/cuda_stubs*.whl 2>&1 | tail -2
"$py" -c 'import stubs_example' 2>/dev/null \
  || "$py" -m pip install -q --no-index --no-deps --break-system-packages "$1"/cuda_stubs*.whl
"$py" -c 'import stubs_example, cuda_stubs; print("installed:", stubs_example.__file__, cuda_stubs.__file__)'
status=0
for order in before after; do
  echo "== $order"
  "$py" "$here/torch_demo.py" "$order" || status=1
done
exit $status
