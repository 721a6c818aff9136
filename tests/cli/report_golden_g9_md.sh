# The Markdown report of a root-cause-then-symptom run (pip replaced torch, then an undefined
# symbol): G9 leads, G1 follows. Redacted by default, as md is made to be shared.
"$GOTCHA_BIN" scan -f md $(find ../../corpus/hard-A-2-pip-replaced-torch-then-undefined-symbol -type f ! -name expected.json | sort)
