#!/bin/sh
# after-samples.sh DIR LINES CMD [ARG]...: wait (at most 10 s) until the record in DIR has LINES
# lines of gpu.csv from the nvidia-smi stand-in, then run CMD, so every record holds the same
# samples however loaded the machine is.
d=$1 n=$2
shift 2
i=0
while [ "$(cat "$d/gpu.csv" 2>/dev/null | wc -l)" -lt "$n" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
exec "$@"
