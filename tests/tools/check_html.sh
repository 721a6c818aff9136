#!/bin/sh
# check_html.sh FILE.html [SCREENSHOT.png]
#
# Opens a gotcha HTML report in Debian's headless chromium and checks that
#  - the page logs no console error ("Uncaught ...", "ERROR:CONSOLE" lines for the page), and no
#    blocked request (the page must not fetch anything: its CSP forbids it, a violation is logged);
#  - the screenshot is not blank: the page's text is drawn, so that at least MIN_INK_PCT of the
#    sampled pixels differ from the background (the most common colour) and at least MIN_COLOURS
#    distinct colours are seen (python3 reads the PNG, stdlib only). Two colours are not enough:
#    a blank page with one rule or a scrollbar has two.
# Prints "OK: ..." and exits 0, or "FAIL: ..." and exits 1. Without chromium (or python3) it prints
# "SKIP: chromium not installed" and exits 77, the harness's skip status (tests/cli/run.sh counts
# it as skipped, never as passed); `make deps` installs chromium.
set -u

file=${1:?usage: check_html.sh FILE.html [SCREENSHOT.png]}
[ -f "$file" ] || { echo "FAIL: $file: no such file"; exit 1; }

browser=
for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
[ -n "$browser" ] || { echo "SKIP: chromium not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
# (run.sh turns those skips into failures under CI=1)

abs=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
png=${2:-$work/shot.png}

# --virtual-time-budget lets layout settle before the shot; timeout bounds a hung browser.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
    --virtual-time-budget=2000 --screenshot="$png" --window-size=1280,2000 \
    "file://$abs" >"$work/stdout" 2>"$work/stderr"
status=$?
if [ $status -ne 0 ] || [ ! -s "$png" ]; then
    echo "FAIL: chromium exited with $status and no screenshot"
    tail -n 20 "$work/stderr"
    exit 1
fi

# Console messages of the page: chromium logs them as "...:INFO:CONSOLE(line)] "text", source: URL"
# (or ERROR:CONSOLE); uncaught exceptions and CSP violations appear in that text.
if grep -E 'ERROR:CONSOLE|Uncaught|Refused to (load|apply|execute|connect)|Content Security Policy' \
        "$work/stderr" >"$work/console"; then
    echo "FAIL: console errors in $file:"
    cat "$work/console"
    exit 1
fi

python3 - "$png" <<'EOF' || exit 1
import struct, sys, zlib

def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("FAIL: %s is not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit("FAIL: unexpected PNG format depth=%d type=%d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        out.append(bytes(line))
    return w, h, bpp, out

w, h, bpp, rows = pixels(sys.argv[1])
# A rendered report: text in several colours (headings, lanes, badges) over a background.
# MIN_INK_PCT: a page of a few short lines inks ~1 % of a 1280x2000 window; a blank one 0.
MIN_COLOURS = 8
MIN_INK_PCT = 0.2
counts = {}
for row in rows[::4]:
    for x in range(0, w * bpp, bpp * 4):
        px = row[x:x + 3]
        counts[px] = counts.get(px, 0) + 1
total = sum(counts.values())
ink = 100.0 * (total - max(counts.values())) / total
if len(counts) < MIN_COLOURS or ink < MIN_INK_PCT:
    raise SystemExit("FAIL: blank screenshot (%d colours, %.2f %% of pixels off the background)" %
                     (len(counts), ink))
print("OK: %dx%d screenshot, at least %d colours sampled, ink over %.1f %%, no console errors" %
      (w, h, MIN_COLOURS, MIN_INK_PCT))
EOF
