# The text report of a G4 corpus run (power plateau in the CSV series), as a person sees it.
"$GOTCHA_BIN" scan $(find ../../corpus/G4-a-power-plateau-csv -type f ! -name expected.json | sort)
