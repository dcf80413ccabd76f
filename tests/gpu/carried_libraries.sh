#!/usr/bin/env bash
# On the GPU machine (issue 49): libraries its CUDA 13.0 toolkit lacks (nvJPEG2000, from NVIDIA's
# nvidia-nvjpeg2k-cu13 wheel, carried) or keeps outside lib64 (libNVVM, nvvm/lib64), each run
# linked normally and through the stubs; outputs, output files and DT_NEEDED compared.
#   - nvJPEG2000: NVIDIA's CUDALibrarySamples nvJPEG2000-Encoder and -Decoder (fetched by you,
#     extracted outside the repository), built by their own CMake files, unedited, with their
#     documented -DNVJPEG2K_PATH: the wheel's folder for the normal build, for the stub build a
#     folder with the wheel's include/ and a lib/ whose libnvjpeg2k.so is the link folder's
#     (INPUT(libstubs_nvjpeg2k.so), as the CMake package makes it) and the rpath to the stubs. The
#     BMP of the encoder's images folder is encoded, the J2K decoded; the files' MD5s compared.
#     (CUDA::cudart stays NVIDIA's in both: the samples link the imported target by full path.)
#   - libNVVM: tests/c/nvvm_compile.c against the toolkit's nvvm.h, linked to its libnvvm and to
#     the stub (which finds the toolkit's copy through LD_LIBRARY_PATH, as search-order.md says);
#     and NVIDIA's libnvvm-samples where the toolkit has them.
#   - nvTIFF (with NVTIFF_DIR, nvidia-nvtiff-cu13's folder): NVIDIA's nvTIFF-Decode-Encode sample
#     the same way (-DNVTIFF_PATH), decoding the samples' bali_notiles.tif and encoding it again.
#   OUT=$OUT bash tests/gpu/carried_libraries.sh STUBS_DIR SAMPLES_DIR NVJPEG2K_DIR|- [NVTIFF_DIR]
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/carried_libraries.sh STUBS_DIR SAMPLES_DIR NVJPEG2K_DIR}")
S=$(realpath "${2:?usage}")
# "-" for NVJPEG2K_DIR: nvJPEG2000 left out (its proof is in RESULTS.md, 2026-12-07 03:11).
W=${3:?usage}
[ "$W" = - ] || W=$(realpath "$W")
T=${4:+$(realpath "$4")}
cuda=${CUDA_HOME:-/usr/local/cuda}
here=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
needed() { readelf -d "$1" | grep NEEDED | sed -E 's/.*\[(.*)\]/\1/' | tr '\n' ' '; }
if [ "$W" != - ]; then
echo "=== nvJPEG2000"
ln -sf libnvjpeg2k.so.0 "$W/lib/libnvjpeg2k.so"
J=$OUT/j2k-stub; mkdir -p "$J/lib"; ln -sfn "$W/include" "$J/include"
printf 'INPUT(%s/libstubs_nvjpeg2k.so)\n' "$D" > "$J/lib/libnvjpeg2k.so"
for s in Encoder Decoder; do
  for mode in normal stub; do
    if [ $mode = normal ]; then flags=(-DNVJPEG2K_PATH="$W"); else flags=(-DNVJPEG2K_PATH="$J" -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,$D"); fi
    cmake -S "$S/nvJPEG2000/nvJPEG2000-$s" -B "$OUT/b-$s-$mode" -DCMAKE_BUILD_TYPE=Release "${flags[@]}" > "$OUT/cmake-$s-$mode.log" 2>&1 &&
      cmake --build "$OUT/b-$s-$mode" -j 8 >> "$OUT/cmake-$s-$mode.log" 2>&1 || { echo "$s $mode: build failed"; tail -5 "$OUT/cmake-$s-$mode.log"; }
  done
done
export CUDA_STUBS_NVJPEG2K_PATH=$W/lib
for mode in normal stub; do
  enc=$OUT/b-Encoder-$mode/nvjpeg2k_encode; dec=$OUT/b-Decoder-$mode/nvjpeg2k_decode
  mkdir -p "$OUT/enc-$mode" "$OUT/dec-$mode"
  "$enc" -i "$S/nvJPEG2000/nvJPEG2000-Encoder/images" -o "$OUT/enc-$mode" > "$OUT/enc-$mode.txt" 2>&1; re=$?
  "$dec" -i "$OUT/enc-$mode" -o "$OUT/dec-$mode" > "$OUT/dec-$mode.txt" 2>&1; rd=$?
  echo "$mode: encode rc=$re decode rc=$rd"
  echo "  encoder NEEDED: $(needed "$enc")"
  echo "  decoder NEEDED: $(needed "$dec")"
  (cd "$OUT/enc-$mode" && md5sum * | sed 's/^/  encoded /'); (cd "$OUT/dec-$mode" && md5sum * | sed 's/^/  decoded /')
  grep -v -i -E "time|speed" "$OUT/enc-$mode.txt" "$OUT/dec-$mode.txt" | sed 's/^/  | /' | head -8
done
unset CUDA_STUBS_NVJPEG2K_PATH
fi
if [ -n "$T" ]; then
  echo "=== nvTIFF"
  ln -sf libnvtiff.so.0 "$T/lib/libnvtiff.so"
  K=$OUT/tiff-stub; mkdir -p "$K/lib"; ln -sfn "$T/include" "$K/include"
  printf 'INPUT(%s/libstubs_nvtiff.so)\n' "$D" > "$K/lib/libnvtiff.so"
  for mode in normal stub; do
    if [ $mode = normal ]; then flags=(-DNVTIFF_PATH="$T"); else flags=(-DNVTIFF_PATH="$K" -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,$D"); fi
    cmake -S "$S/nvTIFF/nvTIFF-Decode-Encode" -B "$OUT/b-tiff-$mode" -DCMAKE_BUILD_TYPE=Release "${flags[@]}" > "$OUT/cmake-tiff-$mode.log" 2>&1 &&
      cmake --build "$OUT/b-tiff-$mode" -j 8 >> "$OUT/cmake-tiff-$mode.log" 2>&1 || { echo "nvTIFF $mode: build failed"; tail -5 "$OUT/cmake-tiff-$mode.log"; }
    exe=$OUT/b-tiff-$mode/nvtiff_decode_encode; mkdir -p "$OUT/tiff-$mode"
    (cd "$OUT/tiff-$mode" && LD_LIBRARY_PATH=$T/lib CUDA_STUBS_NVTIFF_PATH=$T/lib "$exe" "$S/nvTIFF/images/bali_notiles.tif" out.tif > ../tiff-$mode.txt 2>&1; echo "$mode: rc=$?")
    echo "  NEEDED: $(needed "$exe")"
    (cd "$OUT/tiff-$mode" && md5sum * | sed 's/^/  /'); sed 's/^/  | /' "$OUT/tiff-$mode.txt" | head -6
  done
fi
echo "=== libNVVM"
L=$OUT/link; mkdir -p "$L"; printf 'INPUT(%s/libstubs_nvvm.so)\n' "$D" > "$L/libnvvm.so"
gcc -std=c11 -O1 -I"$cuda/nvvm/include" -o "$OUT/nvvm_normal" "$here/tests/c/nvvm_compile.c" -L"$cuda/nvvm/lib64" -lnvvm -Wl,-rpath,"$cuda/nvvm/lib64" -ldl
gcc -std=c11 -O1 -I"$cuda/nvvm/include" -o "$OUT/nvvm_stub" "$here/tests/c/nvvm_compile.c" -L"$L" -lnvvm -Wl,-rpath,"$D" -ldl
"$OUT/nvvm_normal" > "$OUT/nvvm_normal.txt" 2>&1; rn=$?
LD_LIBRARY_PATH=$cuda/nvvm/lib64 "$OUT/nvvm_stub" > "$OUT/nvvm_stub.txt" 2>&1; rs=$?
echo "normal rc=$rn NEEDED: $(needed "$OUT/nvvm_normal")"
echo "stub rc=$rs NEEDED: $(needed "$OUT/nvvm_stub")"
if diff "$OUT/nvvm_normal.txt" "$OUT/nvvm_stub.txt"; then echo "nvvm_compile: the same $(wc -l < "$OUT/nvvm_normal.txt") lines"; fi
head -12 "$OUT/nvvm_normal.txt"
ls "$cuda/nvvm/" "$cuda/nvvm/libnvvm-samples" 2>&1 | tr '\n' ' '; echo
