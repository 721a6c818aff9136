#!/bin/sh
# check_layout.sh FILE.html - the page's layout as headless chromium draws it (the companion of
# check_html.sh, which checks the console and the screenshot):
#  - the charts are drawn: at least one inline SVG, with bars or lines of non-zero size, filled by
#    the page's style sheet (not the default black);
#  - text fits: every SVG text lies inside its SVG, no two labels on one SVG line overlap, no
#    table cell's content overflows the cell, and the page needs no horizontal scrolling at
#    1280 px.
# The page itself runs no script (its Content-Security-Policy forbids it): a wrapper page in a
# temporary directory loads it in an iframe and measures it (--allow-file-access-from-files makes
# the two file:// pages one origin), then chromium's --dump-dom prints the wrapper with the result.
# Prints "OK: ..." and exits 0, or "FAIL: ..." lines and exits 1; without chromium prints
# "SKIP: chromium not installed" and exits 77 (tests/cli/run.sh counts it as skipped).
set -u
file=${1:?usage: check_layout.sh FILE.html}
[ -f "$file" ] || { echo "FAIL: $file: no such file"; exit 1; }
browser=
for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
[ -n "$browser" ] || { echo "SKIP: chromium not installed"; exit 77; }
abs=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cat > "$work/wrap.html" <<HTML
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="page" src="file://$abs" style="width:1280px;height:2000px;border:0"></iframe>
<pre id="result">not measured: the page did not load</pre>
<script>
document.getElementById('page').onload = function () {
  var out = [], d, svgs, bars = 0, texts = 0, cells = 0;
  function box(e) { return e.getBoundingClientRect(); }
  function fail(what, e) { out.push('FAIL: ' + what + ': ' + (e.textContent || e.tagName).trim().slice(0, 60)); }
  try {
    d = this.contentDocument;
    svgs = d.querySelectorAll('svg');
    if (!svgs.length) out.push('FAIL: no chart: the page has no svg');
    svgs.forEach(function (svg) {
      var s = box(svg), drawn = 0, lines = {};
      svg.querySelectorAll('rect,line,polyline,circle').forEach(function (g) {
        var b = box(g), fill = getComputedStyle(g).fill, stroke = getComputedStyle(g).stroke;
        if ((b.width > 0 && b.height > 0) || (g.tagName != 'rect' && (b.width > 0 || b.height > 0))) drawn++;
        if (g.tagName == 'rect' && b.height > 0) { bars++; if (fill == 'rgb(0, 0, 0)') fail('bar not styled', g); }
      });
      if (!drawn) fail('chart draws nothing', svg);
      svg.querySelectorAll('text').forEach(function (t) {
        var b = box(t), key = Math.round(b.top);
        texts++;
        if (b.left < s.left - 0.5 || b.right > s.right + 0.5 || b.top < s.top - 0.5 || b.bottom > s.bottom + 0.5)
          fail('svg text outside its chart', t);
        (lines[key] = lines[key] || []).forEach(function (o) {
          if (b.left < o.right - 0.5 && o.left < b.right - 0.5) fail('svg labels overlap', t);
        });
        lines[key].push(b);
      });
    });
    d.querySelectorAll('td,th,h1,h2,p,li,summary').forEach(function (c) {
      cells++;
      if (c.scrollWidth > c.clientWidth + 1) fail('text overflows its ' + c.tagName.toLowerCase(), c);
    });
    if (d.documentElement.scrollWidth > 1280) out.push('FAIL: the page scrolls sideways: ' + d.documentElement.scrollWidth + ' px wide');
    out.push('STATS ' + svgs.length + ' charts, ' + bars + ' bars, ' + texts + ' chart labels, ' + cells + ' text boxes');
  } catch (e) { out.push('FAIL: cannot measure: ' + e); }
  document.getElementById('result').textContent = out.join('\n');
};
</script></body></html>
HTML
timeout 180 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --allow-file-access-from-files --user-data-dir="$work/profile" --window-size=1280,2000 \
    --virtual-time-budget=5000 --dump-dom "file://$work/wrap.html" >"$work/dom" 2>"$work/stderr"
status=$?
[ $status -eq 0 ] || { echo "FAIL: chromium exited with $status"; tail -n 20 "$work/stderr"; exit 1; }
# the wrapper's <pre>, unescaped enough to read
sed -n '/<pre id="result">/,/<\/pre>/p' "$work/dom" | sed 's/<[^>]*>//g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' \
    >"$work/result"
if grep -q '^FAIL' "$work/result"; then
    grep '^FAIL' "$work/result" | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2 (x\1)/'
    exit 1
fi
stats=$(grep '^STATS ' "$work/result" | sed 's/^STATS //')
[ -n "$stats" ] || { echo "FAIL: not measured:"; head -5 "$work/result"; exit 1; }
echo "OK: $stats; the charts are drawn and every text fits"
