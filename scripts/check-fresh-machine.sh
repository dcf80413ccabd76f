#!/usr/bin/env bash
# Runs the README's two commands on a machine where nothing was installed by hand: a Debian 12
# (bookworm) root made by debootstrap with only what the CI machine image guarantees (gcc, g++,
# make, git, CPython 3 with venv and pip, rustup's stable toolchain for the host alone), then a
# fresh clone of this checkout's HEAD inside it, `scripts/main-job.sh`, then `.ci/run` (with
# CI=true, as CI runs it), each timed, with a fresh HOME and cache. Whatever a script forgets to
# install (a Debian package, a rustup target, a PyPI tool) fails here, where on the developer's
# own machine it would be hidden by an earlier manual install (issue 19). Run it before saying
# an issue is resolved.
#
# Needs root (debootstrap, chroot, mounts) on a Debian machine with the rustup toolchain in
# ~/.rustup; takes 25 to 50 minutes (2026-12-02: 22 and 48 min on two 2-core machines) and ~45 GB in DIR (NVIDIA's wheels of three majors for x86-64,
# aarch64 and Windows, and the build trees): clear target/ and the caches first on a small disk.
# Prints each command's wall time and exits with the first failure's status.
#
# Usage: scripts/check-fresh-machine.sh [--shared-cache] [DIR]   (default: target/fresh-machine)
#   --shared-cache  bind this machine's wheel cache (fetch-cuda.py's, ~36 GB) into the root
#                   instead of downloading it again: CI's machines keep that cache between runs
#                   (its fetch stage prints "(cached)" within seconds), so the run is CI's, on
#                   ~10 GB of disk; the fetch scripts still run and check the cache is complete.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
shared_cache=false
[ "${1:-}" != --shared-cache ] || { shared_cache=true; shift; }
root=$(realpath -m "${1:-target/fresh-machine}")
suite=bookworm
mirror=http://deb.debian.org/debian
# What the CI image has beyond a minimal Debian (its doc: Rust by rustup, gcc, CPython with pip,
# git); nothing the project's own scripts are meant to install.
image_packages=ca-certificates,gcc,g++,make,git,python3,python3-venv,python3-pip,xz-utils
toolchain=stable-$(uname -m)-unknown-linux-gnu
log=$root.log

[ "$(id -u)" = 0 ] || { echo "check-fresh-machine: run as root" >&2; exit 2; }
command -v debootstrap >/dev/null || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() { mkdir -p "$root$1"; mount --bind "$1" "$root$1"; mounts+=("$root$1"); }

echo "== a fresh $suite root in $root"
rm -rf "$root"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include="$image_packages" "$suite" "$root" "$mirror" >"$log" 2>&1 \
  || { tail -20 "$log" >&2; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The workplace's network trust, which every machine of it (CI's too) has and no project
# installs: the registries are reached through a TLS proxy whose CA the image adds to the system
# store and names in pip's configuration and the environment.
cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
chroot "$root" update-ca-certificates >>"$log" 2>&1
[ ! -f /etc/pip.conf ] || cp /etc/pip.conf "$root/etc/pip.conf"
trust_env=()
for var in SSL_CERT_FILE SSL_CERT_DIR PIP_CERT REQUESTS_CA_BUNDLE CURL_CA_BUNDLE GIT_SSL_CAINFO; do
  [ -z "${!var:-}" ] || trust_env+=("$var=${!var}")
done

echo "== rustup's $toolchain, the host target only"
mkdir -p "$root/root/.rustup/toolchains" "$root/root/.cargo/bin"
cp -a ~/.rustup/settings.toml "$root/root/.rustup/"
cp -a ~/.rustup/toolchains/"$toolchain" "$root/root/.rustup/toolchains/"
cp -a ~/.cargo/bin/. "$root/root/.cargo/bin/"

echo "== a fresh clone of HEAD ($(git rev-parse --short HEAD))"
git clone -q --no-local "$repo" "$root/root/src"

mkdir -p "$root/proc" "$root/sys"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mount -t sysfs sys "$root/sys"; mounts+=("$root/sys")
bind /dev
bind /dev/pts
if $shared_cache; then
  cache=${CUDA_STUBS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cuda-stubs}
  mkdir -p "$root/root/.cache/cuda-stubs"
  mount --bind "$cache" "$root/root/.cache/cuda-stubs"; mounts+=("$root/root/.cache/cuda-stubs")
fi

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb CI=true "${trust_env[@]}" \
    PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "$1"
}
# Only the host's target, as on a new machine (the copied toolchain may hold others).
in_root "rustup target list --installed | grep -vx \$(rustc -vV | sed -n 's/^host: //p') \
  | xargs -r rustup target remove" >>"$log" 2>&1

status=0
for step in scripts/main-job.sh .ci/run; do
  echo "== $step"
  start=$(date +%s)
  in_root "cd /root/src && bash $step" >"$root-$(basename "$step").log" 2>&1 || status=$?
  echo "   rc=$status, $(($(date +%s) - start)) s (log: $root-$(basename "$step").log)"
  [ "$status" = 0 ] || { tail -30 "$root-$(basename "$step").log"; exit "$status"; }
done
echo "check-fresh-machine: ok"
