#!/bin/sh
# tests/tools/arm64.sh - the aarch64 build (the DGX Spark's own architecture), checked on x86_64.
#
# Cross-builds gotcha and its unit tests with Debian's aarch64-linux-gnu toolchain, runs the unit
# tests, the CLI golden tests and `make eval` under qemu-user, and checks that every corpus report
# (text, json, md, html) is byte-identical to the x86_64 build's.
#
#   sh tests/tools/arm64.sh setup   install the toolchain, qemu-user and the :arm64 libraries (root)
#   sh tests/tools/arm64.sh test    build and run everything above (make test-arm64 runs both)
#
# How the pieces fit (each one a pitfall met on the way):
# - The :arm64 runtime libraries are installed through dpkg multiarch where they are Multi-Arch: same
#   so /lib/ld-linux-aarch64.so.1 and /usr/lib/aarch64-linux-gnu hold a coherent arm64 glibc and the
#   libraries gotcha loads. The -dev packages are NOT installed: libcriterion-dev:arm64 would remove
#   the amd64 one. They are unpacked into a sysroot under build/ instead, for headers and .so links.
# - Binaries run as themselves through a binfmt_misc entry for aarch64 ELF files pointing at
#   qemu-aarch64. That is what lets Criterion re-exec its workers (/proc/self/exe) and lets the
#   unchanged test scripts run $GOTCHA_BIN. `qemu-aarch64 -L /usr/aarch64-linux-gnu` is not used:
#   it mixes the cross toolchain's glibc with the multiarch one and hangs in pthread_create.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
SYSROOT=$top/build/arm64-sysroot
TRIPLET=aarch64-linux-gnu
RUNTIME_PKGS="libc6 libpcre2-8-0 libzstd1 libarchive13 libjansson4 libgit2-1.5 libffi8"
# Unpacked into the sysroot: headers, pkg-config files and the .so links of the -dev packages, and
# the runtime packages the links point at. libcriterion3 and libnanomsg5 are only here, never
# installed: libnanomsg5 is not Multi-Arch, so its arm64 package would replace the amd64 one that
# the x86_64 unit tests link (and apt would remove libcriterion-dev to make room). The arm64
# binaries find them through their run path.
SYSROOT_PKGS="libpcre2-dev libpcre2-8-0 libpcre2-16-0 libpcre2-32-0 libpcre2-posix3 libzstd-dev libzstd1
              libarchive-dev libarchive13 libjansson-dev libjansson4 libcriterion-dev libcriterion3
              libnanomsg5"
BINFMT=/proc/sys/fs/binfmt_misc

say() { echo "arm64: $*"; }

setup() {
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
    need=""
    # libc6-dev-arm64-cross is only a Recommends of the cross compiler: without it, no <stdlib.h>
    for p in gcc-$TRIPLET libc6-dev-arm64-cross qemu-user file; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
    done
    for p in $RUNTIME_PKGS; do
        dpkg-query -W -f='${Status}' "$p:arm64" 2>/dev/null | grep -q "install ok installed" ||
            need="$need $p:arm64"
    done
    if [ -n "$need" ] || ! apt-cache show libcriterion-dev:arm64 >/dev/null 2>&1; then
        $SUDO apt-get update -qq
    fi
    if [ -n "$need" ]; then
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
    fi
    if [ ! -f "$SYSROOT/.done" ]; then
        rm -rf "$SYSROOT" "$SYSROOT.debs"
        mkdir -p "$SYSROOT" "$SYSROOT.debs"
        # apt-get download writes as the _apt user where it can; a root-owned directory is fine too.
        (cd "$SYSROOT.debs" && apt-get download $(for p in $SYSROOT_PKGS; do echo "$p:arm64"; done) \
            2>&1 | grep -v "unsandboxed" || true)
        for d in "$SYSROOT.debs"/*.deb; do dpkg-deb -x "$d" "$SYSROOT"; done
        touch "$SYSROOT/.done"
    fi
    if [ ! -e "$BINFMT/register" ]; then
        $SUDO mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || true
    fi
    if [ ! -e "$BINFMT/qemu-aarch64" ] && [ -e "$BINFMT/register" ]; then
        # The aarch64 ELF header (class 64, little endian, e_machine 183), as Debian's
        # qemu-user-binfmt registers it; F: the interpreter is opened now, so it works in chroots.
        printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64:F' \
            | $SUDO tee "$BINFMT/register" >/dev/null
    fi
    [ -e "$BINFMT/qemu-aarch64" ] || { say "cannot register qemu-aarch64 with binfmt_misc"; exit 1; }
    say "setup done (sysroot $SYSROOT)"
}

need_setup() {
    [ -f "$SYSROOT/.done" ] && [ -e "$BINFMT/qemu-aarch64" ] || {
        say "not set up: run 'sh tests/tools/arm64.sh setup' (make test-arm64 does)"; exit 1; }
}

# -rpath-link: the libraries' own dependencies (libxml2, libgit2, ...) are the multiarch ones.
# RPATH, not RUNPATH: libcriterion.so.3 itself must find libnanomsg.so.5 there too
arm_make() {
    arm_ld="-Wl,-rpath-link,/usr/lib/$TRIPLET -Wl,-rpath-link,/lib/$TRIPLET"
    arm_ld="$arm_ld -Wl,-rpath-link,$SYSROOT/usr/lib/$TRIPLET -Wl,-rpath,$SYSROOT/usr/lib/$TRIPLET -Wl,--disable-new-dtags"
    PKG_CONFIG_LIBDIR="$SYSROOT/usr/lib/$TRIPLET/pkgconfig:$SYSROOT/usr/share/pkgconfig" \
    PKG_CONFIG_SYSROOT_DIR="$SYSROOT" GOTCHA_PATTERNS="$top/patterns" \
        make --no-print-directory CONFIG=arm64 CC=$TRIPLET-gcc "LDFLAGS=$arm_ld" \
            TEST_CFLAGS= TEST_LIBS=-lcriterion "$@"
}

build_gotcha() { # build/arm64/gotcha plus the targets named
    arm_make -s -j2 WERROR="${WERROR:-}" build/arm64/gotcha "$@" >/dev/null
    file build/arm64/gotcha | grep -q "ARM aarch64" || { say "build/arm64/gotcha is not aarch64"; exit 1; }
    say "built $(file -b build/arm64/gotcha | cut -d, -f1-2)"
}

run_tests() {
    need_setup
    build_gotcha build/arm64/tests/unit_tests
    # one CLI test at a time under qemu: the tests with deadlines were measured serially there
    CLI_JOBS=1 arm_make unit cli-test eval

    # The same reports as on x86_64, format by format, for every corpus run.
    make -s all >/dev/null
    out=$top/build/arm64/compare
    rm -rf "$out"; mkdir -p "$out"
    n=0; bad=0
    for d in corpus/*/; do
        [ -f "$d/expected.json" ] || continue
        files=$(find "$d" -type f ! -name expected.json | sort)
        for f in text json md html; do
            n=$((n + 1))
            # shellcheck disable=SC2086
            GOTCHA_PATTERNS=$top/patterns NO_COLOR=1 LC_ALL=C ./gotcha scan -q -f $f $files >"$out/x86" 2>&1 || true
            # shellcheck disable=SC2086
            GOTCHA_PATTERNS=$top/patterns NO_COLOR=1 LC_ALL=C build/arm64/gotcha scan -q -f $f $files >"$out/arm" 2>&1 || true
            if ! cmp -s "$out/x86" "$out/arm"; then
                bad=$((bad + 1))
                say "report differs: $d ($f)"
                diff "$out/x86" "$out/arm" | head -6 | sed 's/^/    /'
            fi
        done
    done
    say "$((n - bad)) of $n corpus reports byte-identical to x86_64"
    [ "$bad" -eq 0 ]
}

# The speed bench (tests/bench/speed.sh) with the aarch64 build and aarch64 grep and zstd, all three
# under qemu-user: emulation slows every program, so the ratios (gotcha / grep-40, .zst / zstd -dc)
# are the figures to read, not the GB/s. Debian's grep and zstd :arm64 are unpacked beside the
# sysroot (their libraries are the multiarch ones the setup installs) and put first on PATH.
# BENCH_SIZE defaults to 64M here: qemu runs the 256M log's rounds in minutes.
run_bench() {
    need_setup
    build_gotcha
    bin=$top/build/arm64-bench/bin
    if [ ! -x "$bin/grep" ] || [ ! -x "$bin/zstd" ]; then
        debs=$top/build/arm64-bench/debs
        mkdir -p "$debs" "$bin"
        (cd "$debs" && apt-get download grep:arm64 zstd:arm64 2>&1 | grep -v "unsandboxed" || true)
        for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$top/build/arm64-bench/root"; done
        cp "$top/build/arm64-bench/root/bin/grep" "$top/build/arm64-bench/root/usr/bin/zstd" "$bin/"
    fi
    file "$bin/grep" | grep -q "ARM aarch64" || { say "$bin/grep is not aarch64"; exit 1; }
    "$bin/zstd" -V >/dev/null || { say "the arm64 zstd does not run (liblzma5/liblz4-1:arm64?)"; exit 1; }
    say "bench under qemu-user: $(file -b build/arm64/gotcha | cut -d, -f1-2), grep and zstd :arm64"
    PATH="$bin:$PATH" GOTCHA_BIN="$top/build/arm64/gotcha" BENCH_SIZE="${BENCH_SIZE:-64M}" \
        sh tests/bench/speed.sh
}

case "${1:-}" in
setup) setup ;;
test) run_tests ;;
bench) run_bench ;;
*) echo "usage: sh tests/tools/arm64.sh setup|test|bench" >&2; exit 2 ;;
esac
