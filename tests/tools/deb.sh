#!/bin/sh
# tests/tools/deb.sh - the Debian packages (debian/), built with Debian's own tools and checked.
#
#   sh tests/tools/deb.sh build VERSION   gotcha_VERSION_amd64.deb (native) and, cross-built,
#                                         gotcha_VERSION_arm64.deb in build/deb/; lintian on both
#   sh tests/tools/deb.sh check VERSION   install the native package (dpkg -i, root) and use it as a
#                                         user would: --version, a scan of a corpus run with the
#                                         pack found in /usr/share/gotcha, man gotcha, the three
#                                         completions; then the arm64 package's binary under qemu
#                                         scans the same run to the same JSON; then remove it
#
# make deb and make deb-check run these. The cross build uses the aarch64 toolchain, the :arm64
# runtime libraries and the sysroot of -dev packages that tests/tools/arm64.sh sets up (make deb
# runs its setup first): a pkg-config wrapper named for the triplet, as debhelper expects it when
# cross-building, points pkg-config at that sysroot. The package itself links nothing from the
# sysroot at run time (no RPATH): its Depends come from dpkg-shlibdeps (${shlibs:Depends}).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=$top/build/deb
TRIPLET=aarch64-linux-gnu
SYSROOT=$top/build/arm64-sysroot
say() { echo "deb: $*"; }
die() { echo "deb: $*" >&2; exit 1; }

need_tools() {
    for t in dpkg-buildpackage dh dpkg-parsechangelog lintian; do
        command -v $t >/dev/null 2>&1 || die "$t not found: run 'make deps' (debhelper, dpkg-dev, lintian)"
    done
}

# The package's version is the Makefile's: a changelog that says another one is a mistake.
check_version() {
    v=$(dpkg-parsechangelog -l debian/changelog -S Version)
    [ "$v" = "$1" ] || die "debian/changelog says $v, the Makefile's VERSION is $1: add a changelog entry"
}

# The source tree as a clean copy (no build outputs, no .git), so the build never touches the
# working tree and its outputs land in build/deb/.
stage() {
    rm -rf "$out"
    mkdir -p "$out/src/gotcha-$1" "$out/bin"
    tar -cf - --exclude=./build --exclude=./.git --exclude=./gotcha --exclude=./tests/bench/out . |
        tar -xf - -C "$out/src/gotcha-$1"
}

lint() {
    lintian --fail-on error --tag-display-limit 0 "$1" >"$1.lintian" 2>&1 || {
        cat "$1.lintian"
        die "lintian reports errors on $(basename "$1")"
    }
    e=$(grep -c '^E:' "$1.lintian" || true)
    w=$(grep -c '^W:' "$1.lintian" || true)
    say "lintian $(basename "$1"): $e errors, $w warnings"
    sed 's/^/    /' "$1.lintian"
}

build() {
    v=$1
    need_tools
    check_version "$v"
    stage "$v"
    src=$out/src/gotcha-$v
    native=$(dpkg --print-architecture)
    say "building gotcha_${v}_$native.deb"
    (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build-$native.log" 2>&1 || {
        tail -30 "$out/build-$native.log"
        die "dpkg-buildpackage failed (build/deb/build-$native.log)"
    }
    if [ "$native" != arm64 ]; then
        [ -f "$SYSROOT/.done" ] || die "no arm64 sysroot: run 'sh tests/tools/arm64.sh setup' (make deb does)"
        # pkg-config for the host triplet, as a cross-wrapper does: the sysroot's .pc files.
        cat >"$out/bin/$TRIPLET-pkg-config" <<EOF
#!/bin/sh
PKG_CONFIG_LIBDIR="$SYSROOT/usr/lib/$TRIPLET/pkgconfig:$SYSROOT/usr/share/pkgconfig" \\
PKG_CONFIG_SYSROOT_DIR="$SYSROOT" exec pkg-config "\$@"
EOF
        chmod +x "$out/bin/$TRIPLET-pkg-config"
        say "cross-building gotcha_${v}_arm64.deb"
        # -d: the Build-Depends are met by the sysroot, not by installed :arm64 -dev packages
        # (libcriterion-dev:arm64 would replace the amd64 one); the library's own dependencies
        # (libxml2, ...) are the multiarch runtime libraries, found at link time by -rpath-link.
        (cd "$src" && PATH="$out/bin:$PATH" DEB_BUILD_OPTIONS=nocheck \
            DEB_LDFLAGS_APPEND="-Wl,-rpath-link,/usr/lib/$TRIPLET -Wl,-rpath-link,/lib/$TRIPLET -Wl,-rpath-link,$SYSROOT/usr/lib/$TRIPLET" \
            dpkg-buildpackage -aarm64 -d -us -uc -b) >"$out/build-arm64.log" 2>&1 || {
            tail -30 "$out/build-arm64.log"
            die "cross dpkg-buildpackage failed (build/deb/build-arm64.log)"
        }
    fi
    mv "$out/src"/gotcha_"$v"_* "$out/src"/gotcha-dbgsym_"$v"_* "$out/" 2>/dev/null || true
    for a in $native arm64; do
        deb=$out/gotcha_${v}_$a.deb
        [ -f "$deb" ] || die "no $deb"
        say "$(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
        lint "$deb"
    done
}

check() {
    v=$1
    native=$(dpkg --print-architecture)
    deb=$out/gotcha_${v}_$native.deb
    [ -f "$deb" ] || die "no $deb: run 'make deb' first"
    [ "$(id -u)" = 0 ] || die "installing the package needs root (CI runs this as root)"
    run=corpus/G4-a-power-plateau-csv
    files=$(find "$run" -type f ! -name expected.json | sort)
    dpkg -i "$deb" >/dev/null
    trap 'dpkg -r gotcha >/dev/null 2>&1 || true' EXIT
    fails=0
    ok() { say "ok   $*"; }
    bad() { say "FAIL $*"; fails=$((fails + 1)); }
    [ "$(command -v gotcha)" = /usr/bin/gotcha ] && ok "installed as /usr/bin/gotcha" || bad "gotcha is $(command -v gotcha)"
    /usr/bin/gotcha --version | grep -q "^gotcha $v" && ok "--version says $v" || bad "--version"
    # From an empty directory, with no GOTCHA_PATTERNS: the pack must be the installed one.
    empty=$(mktemp -d)
    pack=$(cd "$empty" && env -u GOTCHA_PATTERNS /usr/bin/gotcha patterns 2>&1) || true
    [ "$(readlink -f "$pack")" = /usr/share/gotcha/patterns ] &&
        ok "pack found in /usr/share/gotcha/patterns ($pack)" || bad "pack: $pack"
    # shellcheck disable=SC2086
    set +e
    (cd "$top" && env -u GOTCHA_PATTERNS NO_COLOR=1 LC_ALL=C /usr/bin/gotcha scan -q -f json $files) >"$out/installed.json"
    st=$?
    set -e
    verdict=$(python3 -c 'import json,sys; print((json.load(sys.stdin).get("verdict") or {}).get("id"))' \
        <"$out/installed.json" 2>/dev/null || echo unreadable)
    [ $st -eq 1 ] && [ "$verdict" = G4 ] && ok "scan of $run: G4, exit 1" ||
        bad "scan of $run: exit $st, verdict $verdict"
    man -P cat gotcha 2>/dev/null | grep -q "gotcha" && ok "man gotcha renders" || bad "man gotcha"
    for f in /usr/share/bash-completion/completions/gotcha /usr/share/zsh/vendor-completions/_gotcha \
        /usr/share/fish/vendor_completions.d/gotcha.fish /usr/share/doc/gotcha/copyright; do
        [ -f "$f" ] && ok "$f" || bad "missing $f"
    done
    rmdir "$empty"

    # The README's path for a Spark owner, with the installed binary: preflight, record, scan of the
    # record, batch --format html (the commands of README.md's Quick start).
    work=$(mktemp -d)
    set +e
    (cd "$work" && env -u GOTCHA_PATTERNS /usr/bin/gotcha preflight >preflight.txt 2>&1)
    st=$?
    set -e
    [ $st -le 1 ] && grep -q "^G1 " "$work/preflight.txt" && grep -q "^G10 " "$work/preflight.txt" &&
        ok "preflight: G1..G10 lines, exit $st" || bad "preflight: exit $st, $(head -2 "$work/preflight.txt")"
    set +e
    (cd "$work" && mkdir -p runs && env -u GOTCHA_PATTERNS /usr/bin/gotcha record -q -o runs/job42 -- \
        sh -c 'echo "step 1 loss 2.31"; echo "RuntimeError: CUDA error: out of memory" >&2; exit 3' \
        >record.out 2>record.err)
    st=$?
    set -e
    [ $st -eq 3 ] && [ -f "$work/runs/job42/run.txt" ] && [ -f "$work/runs/job42/stderr.log" ] &&
        ok "record: the job's exit status 3, run.txt and stderr.log kept" || bad "record: exit $st"
    set +e
    (cd "$work" && env -u GOTCHA_PATTERNS NO_COLOR=1 /usr/bin/gotcha scan runs/job42 >scan.txt 2>&1)
    st=$?
    set -e
    [ $st -eq 1 ] && grep -q "outcome: failed" "$work/scan.txt" &&
        ok "scan of the record: outcome failed, exit 1" || bad "scan of the record: exit $st"
    mkdir -p "$work/runs/g4" && cp $files "$work/runs/g4/"
    set +e
    (cd "$work" && env -u GOTCHA_PATTERNS /usr/bin/gotcha batch --format html -o runs.html runs >/dev/null 2>&1)
    st=$?
    set -e
    [ $st -eq 0 ] && grep -q "<svg" "$work/runs.html" && grep -q "G4" "$work/runs.html" &&
        ok "batch --format html: a dashboard with its chart" || bad "batch --format html: exit $st"
    rm -rf "$work"

    # The arm64 package's binary, extracted, under qemu (binfmt: tests/tools/arm64.sh setup).
    root=$out/arm64-root
    rm -rf "$root"
    dpkg-deb -x "$out/gotcha_${v}_arm64.deb" "$root"
    if [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        set +e
        # shellcheck disable=SC2086
        (cd "$top" && NO_COLOR=1 LC_ALL=C GOTCHA_PATTERNS=$root/usr/share/gotcha/patterns \
            "$root/usr/bin/gotcha" scan -q -f json $files) >"$out/arm64.json"
        st=$?
        set -e
        [ $st -eq 1 ] && cmp -s "$out/installed.json" "$out/arm64.json" &&
            ok "arm64 binary under qemu: the same JSON report" ||
            bad "arm64 binary under qemu: exit $st, $(diff "$out/installed.json" "$out/arm64.json" | head -3)"
    else
        bad "qemu-aarch64 is not registered with binfmt_misc (sh tests/tools/arm64.sh setup)"
    fi
    [ $fails -eq 0 ] || die "$fails checks failed"
    say "all checks passed"
}

case "${1:-}" in
build) build "${2:?version}" ;;
check) check "${2:?version}" ;;
*) echo "usage: sh tests/tools/deb.sh build|check VERSION" >&2; exit 2 ;;
esac
