# --platform / GOTCHA_PLATFORM set the platform the diagnosis assumes (issue 11 item 6), and the
# JSON report says which and why. A GB10 power-plateau run read as "other" loses its GB10-scoped
# verdict with the scope's sentence; an H100 OOM run read as "gb10" is still no G3 (its 80 GiB
# device says otherwise); a bad value is a usage error.
summ() {
    python3 -c '
import json, sys
r = json.load(sys.stdin)
c = r["context"]
g4 = [f for f in r["findings"] if f["id"] == "G4"]
print(r["verdict"]["id"] if r["verdict"] else "none", r["records"], c["gb10"], c["platform"],
      repr(c["platform_from"]), g4[0]["summary"].split("Less likely because ")[-1] if g4 else "")'
}
g4=../../corpus/G4-a-power-plateau-csv
h100=../../corpus/hard-A-3-h100-real-oom-not-uma
"$GOTCHA_BIN" scan -f json $(find $g4 -type f ! -name expected.json | sort) | summ
"$GOTCHA_BIN" scan -f json --platform other $(find $g4 -type f ! -name expected.json | sort) | summ
GOTCHA_PLATFORM=other "$GOTCHA_BIN" scan -f json $(find $g4 -type f ! -name expected.json | sort) | summ
GOTCHA_PLATFORM=other "$GOTCHA_BIN" scan -f json --platform auto $(find $g4 -type f ! -name expected.json | sort) | summ
GOTCHA_PLATFORM=gb10 "$GOTCHA_BIN" scan -f json $(find $h100 -type f ! -name expected.json | sort) | summ
"$GOTCHA_BIN" scan --platform mars $g4/train.log; echo "exit $?"
GOTCHA_PLATFORM=mars "$GOTCHA_BIN" scan $g4/train.log; echo "exit $?"
# the text header says a platform the user set as such
"$GOTCHA_BIN" scan --platform other $g4/train.log | sed -n 1p | sed 's/.*· //'
GOTCHA_PLATFORM=gb10 "$GOTCHA_BIN" scan $(find $h100 -type f ! -name expected.json | sort) | sed -n 1p | sed 's/.*· //'
