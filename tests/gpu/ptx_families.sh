#!/usr/bin/env bash
# GPU proof of the PTX executor's tensor-core (mma.sync, wmma, ldmatrix, stmatrix), mbarrier /
# cp.async.bulk, indirect-call and .b128 tests (issue 47): builds tests/gpu/ptx_families.cu,
# which includes the kernels of stub-ptx/tests/ptx/{tensor,tensor90,mbarrier,indirect,b128}.cu,
# with the machine's nvcc for sm_90 (H100/H200), linked normally (no stub), and runs it: each kernel
# gets the inputs of stub-ptx's tests and its result is checked against the host computation
# those tests check the executor with. PASS/FAIL per kernel; exits 1 on any FAIL.
#
#   bash tests/gpu/ptx_families.sh   (NVCC=path/to/nvcc picks the compiler, NVCC_FLAGS adds flags)
set -u
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$NVCC" -std=c++17 -O1 -arch=sm_90 ${NVCC_FLAGS:-} -o "$out/ptx_families" "$here/ptx_families.cu" || { echo "FAIL build"; exit 1; }
"$out/ptx_families"
