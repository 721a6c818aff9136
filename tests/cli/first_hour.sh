# What a new user meets in the first hour (issue 21), one check per line: "ok <item>: what held"
# or "FAIL <item>: what did not". Each section is a function; the script runs them all and exits 1
# when any check failed, so the golden (first_hour.stdout) is the list of what holds.
#
# Shapes:
#  - NVIDIA's driver prints "NVRM: Xid (PCI:%04x:%02x:%02x): %d, " and the details (open-gpu-
#    kernel-modules, as cited in patterns/nvidia-xid.json), Xid 79's "GPU has fallen off the bus.";
#    in a syslog/journal file behind "Mon DD HH:MM:SS host kernel: ", with `dmesg -T` as
#    "[Day Mon DD HH:MM:SS YYYY] ", in raw `dmesg` output with no stamp at all.
#  - PyTorch raises "RuntimeError: CUDA error: " + cudaGetErrorString() ("unspecified launch
#    failure" is cudaErrorLaunchFailure's) and appends "CUDA kernel errors might be
#    asynchronously reported at some other API call, so the stacktrace below might be
#    incorrect." and "For debugging consider passing CUDA_LAUNCH_BLOCKING=1"
#    (c10/cuda/CUDAException.cpp); the traceback above it is CPython's.
#  - python logging's default "%(asctime)s %(levelname)s %(message)s" stamps.
#  - OpenSSH's "Accepted publickey for %s from %s port %d ssh2: %s" (openssh-portable auth.c),
#    pam_unix's "session opened for user %s(uid=%s) by %s(uid=%lu)" and "authentication
#    failure; logname=%s uid=%d euid=%d tty=%s ruser=%s rhost=%s  user=%s" (linux-pam).
set -u
#
# Items 5-11 run the live commands on the stand-ins of data/live/ (live_setup.inc; data/live/README.md
# says where each shape comes from), so nothing of this machine's GPU, Python or kernel log reaches
# the checks; their section has helpers of its own (fixed-string has/hasnt on files that must
# exist, json), defined where it starts.
fails=0
ok() { echo "ok $1: $2"; }
bad() {
    echo "FAIL $1: $2"
    fails=$((fails + 1))
}
# check ITEM WHAT CMD...: ok when CMD succeeds
check() {
    item=$1 what=$2
    shift 2
    if "$@"; then ok "$item" "$what"; else bad "$item" "$what"; fi
}
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -i -- "$2" "$1"; }
T=$TEST_TMP

# --- verdict, exit status, redaction, html (items 1-4, 12)

XID79='NVRM: Xid (PCI:0000:01:00): 79, pid=123, GPU has fallen off the bus.'

write_cuda_train_log() { # DIR: a train.log that ends in PyTorch's CUDA error
    cat >"$1/train.log" <<'EOF'
2026-05-12 13:05:14,000 INFO step 10 loss 1.21
2026-05-12 13:05:14,500 INFO step 11 loss 1.19
Traceback (most recent call last):
  File "train.py", line 142, in <module>
    loss.backward()
RuntimeError: CUDA error: unspecified launch failure
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1
EOF
}

# Item 1: a fatal Xid of the same run is the root, the CUDA error its cascade, whatever the
# clocks say; its catalogue action is the fix; an untimed event is drawn in its own lane.
item1_fault_over_symptom() {
    action=$("$GOTCHA_BIN" explain xid:79 | sed -n 's/^action *[A-Z_]*: //p')
    check 1 "the catalogue gives Xid 79 an action" test -n "$action"
    for clock in untimed later; do
        d=$T/xid-$clock
        mkdir -p "$d"
        write_cuda_train_log "$d"
        if [ $clock = untimed ]; then
            echo "$XID79" >"$d/dmesg.txt"
        else # dmesg -T, a second after the CUDA error
            echo "[Tue May 12 13:05:15 2026] $XID79" >"$d/dmesg.txt"
        fi
        "$GOTCHA_BIN" scan "$d" >"$d.txt" 2>/dev/null
        check 1 "$clock Xid 79: both inputs read" has "$d.txt" " 2 inputs in "
        check 1 "$clock Xid 79: the first error is the Xid, not the CUDA error" \
            has "$d.txt" "First error: Xid 79: GPU has fallen off the bus"
        check 1 "$clock Xid 79: the first error's line is the driver's" \
            has "$d.txt" "outcome: failed (first error at dmesg.txt:1)"
        # the fix, as the text report wraps it: its first words
        check 1 "$clock Xid 79: the fix is the catalogue's action" \
            has "$d.txt" "Fix: $(echo "$action" | cut -c1-40)"
        check 1 "$clock Xid 79: the CUDA error is still on the timeline" \
            has "$d.txt" "C.cuda-error"
    done
    "$GOTCHA_BIN" scan -f json "$T/xid-untimed" >"$T/xid.json"
    check 1 "json: first_error is catalogue xid, code 79" \
        python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["first_error"]
sys.exit(not (f["catalogue"] == "xid" and f["code"] == 79 and f["path"].endswith("dmesg.txt")))' \
        "$T/xid.json"
    "$GOTCHA_BIN" scan -f html -o "$T/xid.html" "$T/xid-untimed"
    check 1 "html: the untimed events have their own lane" \
        has "$T/xid.html" ">no comparable time (in order)</text>"
    check 1 "html: the untimed Xid 79 is drawn in it" \
        grep -q '<title>no time [^<]*dmesg.txt:1 [^<]*Xid 79' "$T/xid.html"
    check 1 "html: no event is left undrawn" hasnt "$T/xid.html" "not drawn"
}

# Item 2: a failed run exits 1 with no gotcha named; a completed healthy run exits 0.
item2_exit_status() {
    "$GOTCHA_BIN" scan "$T/xid-untimed" >"$T/f.txt" 2>&1
    rc=$?
    check 2 "a failed run with no gotcha named exits 1" test $rc -eq 1
    check 2 "... and it is failed, none of G1-G10" \
        sh -c 'grep -q "^outcome: failed" "$1" && grep -q "^No known gotcha" "$1"' - "$T/f.txt"
    "$GOTCHA_BIN" scan data/healthy.log >"$T/h.txt" 2>&1
    rc=$?
    check 2 "a completed healthy run exits 0" test $rc -eq 0
    check 2 "... and it is completed" has "$T/h.txt" "^outcome: completed"
    "$GOTCHA_BIN" --help >"$T/help.txt"
    check 2 "--help says a failed run exits 1" has "$T/help.txt" "or the run failed (outcome 'failed'"
}

# Item 3: nothing to read is an error: said on stderr, exit 2, no report.
scan_nothing() { # ITEM WHAT PATH STDERR-PATTERN
    "$GOTCHA_BIN" scan "$3" >"$T/n.out" 2>"$T/n.err"
    rc=$?
    check "$1" "$2: exit 2" test $rc -eq 2
    check "$1" "$2: no report on stdout" test ! -s "$T/n.out"
    check "$1" "$2: stderr says nothing could be read" has "$T/n.err" "gotcha: nothing to read in "
    check "$1" "$2: stderr says why ($4)" has "$T/n.err" "$4"
}
item3_nothing_to_read() {
    mkdir -p "$T/empty" "$T/binaries" "$T/undecodable"
    scan_nothing 3 "an empty directory" "$T/empty" "no file found"
    # an ELF header and zeros (not $GOTCHA_BIN itself: under valgrind that is a shell script)
    { printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000'; head -c 4000 /dev/zero; } >"$T/binaries/a.bin"
    printf '\000\001\002\003\377\376 not text\000' >"$T/binaries/b.dat"
    scan_nothing 3 "a directory of binaries" "$T/binaries" "2 files found, none with a line of text (binary file: 2)"
    # a gzip stream cut after its header and a few bytes: it cannot be decoded
    printf 'train step 1\n' | gzip -c | head -c 14 >"$T/undecodable/train.log.gz"
    scan_nothing 3 "an undecodable file" "$T/undecodable/train.log.gz" "truncated gzip data: 1"
    # many inputs: the message names the first three and counts the rest (three: none left over)
    mkdir -p "$T/e1" "$T/e2" "$T/e3" "$T/e4"
    "$GOTCHA_BIN" scan "$T/e1" "$T/e2" "$T/e3" >/dev/null 2>"$T/n3.err"
    check 3 "three empty inputs: all three named" has "$T/n3.err" "e1', '$T/e2', '$T/e3': no file found"
    "$GOTCHA_BIN" scan "$T/e1" "$T/e2" "$T/e3" "$T/e4" >/dev/null 2>"$T/n4.err"
    check 3 "four empty inputs: three named and 1 more" has "$T/n4.err" "e3' and 1 more: no file found"
    check 3 "four empty inputs: the fourth not named" hasnt "$T/n4.err" "e4"
}

# Item 4: host, user and e-mail planted in contents, file names and directory names; none
# survives in md, html or a collect bundle (contents and member names), and the report still
# names the failure.
SECRETS='alice spark-dgx01 example.com'
none_left() { # FILE: not one planted string, any case
    for s in $SECRETS; do
        if grep -q -i -- "$s" "$1"; then return 1; fi
    done
}
# The redaction table's schemes and prefixes (analyzer/report/sanitize.c, as test_boundaries.c's
# g_tokens), each with a body at its minimum length plus its row number (each secret its own), on
# a requests/urllib3 debug line ("send: b'...Authorization: Bearer ...'" shape) in the job log.
TOKENS='8|Authorization: Bearer
8|Authorization: Basic
8|authorization: bearer
30|hf_
20|sk-proj-
20|sk-
22|github_pat_
30|ghp_
30|gho_
30|ghu_
30|ghs_
30|ghr_'
token_body() { # N K: a body of N+K alphanumerics
    printf 'Zq7Xw3Vb9Nm2Kc5Lp8Rt4Yh6Jd1Gf0SaZq7Xw3Vb9Nm2Kc5Lp8Rt4Yh6Jd1Gf0Sa' | cut -c1-$(($1 + $2))
}
token_lines() {
    k=0
    printf '%s\n' "$TOKENS" | while IFS='|' read -r min prefix; do
        k=$((k + 1))
        sep=''
        case $prefix in *:*) sep=' ' ;; esac
        echo "2026-05-12 13:05:13,$((100 + k)) INFO upload $k: header ${prefix}${sep}$(token_body "$min" "$k")"
    done
}
tokens_are() { # in|out FILE: every planted token body is in FILE / none is
    k=0
    printf '%s\n' "$TOKENS" | {
        while IFS='|' read -r min prefix; do
            k=$((k + 1))
            if grep -q -- "$(token_body "$min" "$k")" "$2"; then
                [ "$1" = in ] || exit 1
            else
                [ "$1" = out ] || exit 1
            fi
        done
    }
}
item4_redaction() {
    run=$T/job42-spark-dgx01
    mkdir -p "$run"
    cat >"$run/dmesg-spark-dgx01.txt" <<'EOF'
May 12 13:01:07 spark-dgx01 sshd[812]: Accepted publickey for alice from 10.0.0.5 port 52144 ssh2: ED25519 SHA256:Qm9vYmFyYmF6cXV4cXV1eA
May 12 13:01:07 spark-dgx01 sshd[812]: pam_unix(sshd:session): session opened for user alice(uid=1000) by (uid=0)
May 12 13:01:09 spark-dgx01 sudo: pam_unix(sudo:auth): authentication failure; logname=alice uid=1000 euid=0 tty=/dev/pts/0 ruser=alice rhost=  user=alice
May 12 13:05:15 spark-dgx01 kernel: NVRM: Xid (PCI:0000:01:00): 79, pid=4121, name=python3, GPU has fallen off the bus.
EOF
    # the job log's first and last lines are on the timeline: the e-mail and FQDN open it, a
    # traceback frame in alice's home directory ends it
    write_cuda_train_log "$T"
    {
        echo "2026-05-12 13:05:13,000 INFO job by alice@example.com on spark-dgx01.corp.example.com"
        token_lines
        cat "$T/train.log"
        echo '  File "/home/alice/venv/lib/python3.12/site-packages/torch/_tensor.py", line 626, in backward'
    } >"$run/train.log"
    cd "$T" || return
    "$GOTCHA_BIN" scan -v -f md -o r.md job42-spark-dgx01 2>/dev/null
    "$GOTCHA_BIN" scan -v -f html -o r.html job42-spark-dgx01 2>/dev/null
    "$GOTCHA_BIN" scan -v -f md --no-redact job42-spark-dgx01 >raw.txt 2>/dev/null
    check 4 "the planted strings are in the unredacted report (the test reads them)" \
        sh -c 'for s in alice spark-dgx01 example.com; do grep -q "$s" raw.txt || exit 1; done'
    check 4 "md: no user, host or e-mail survives" none_left r.md
    check 4 "html: no user, host or e-mail survives" none_left r.html
    check 4 "md: the report still names the failure" has r.md "Xid 79: GPU has fallen off the bus"
    check 4 "html: the report still names the failure" has r.html "Xid 79: GPU has fallen off the bus"
    check 4 "md: the host is one placeholder in paths and lines" \
        sh -c 'grep -q "job42-<host-1>/dmesg-<host-1>.txt" r.md &&
               ! grep -q "<host-2>" r.md'
    "$GOTCHA_BIN" collect -q --no-host -o b.tar.zst job42-spark-dgx01 >/dev/null 2>&1
    check 4 "collect wrote a bundle" test -s b.tar.zst
    tar --zstd -tf b.tar.zst >members.txt
    mkdir -p x && tar --zstd -xf b.tar.zst -C x
    cat x/gotcha-bundle/*/* x/gotcha-bundle/*.md >contents.txt 2>/dev/null
    check 4 "collect: the bundle holds both files and the report" \
        test "$(grep -c . members.txt)" -eq 3
    check 4 "collect: no user, host or e-mail in member names" none_left members.txt
    check 4 "collect: no user, host or e-mail in contents" none_left contents.txt
    check 4 "the planted tokens are in the job log (the test reads them)" \
        tokens_are in job42-spark-dgx01/train.log
    check 4 "collect: every token line is in the bundle" \
        test "$(grep -c 'INFO upload [0-9]*: header ' contents.txt)" -eq "$(printf '%s\n' "$TOKENS" | grep -c .)"
    check 4 "collect: no token of the redaction table in contents" tokens_are out contents.txt
    check 4 "collect: no token of the redaction table in member names" tokens_are out members.txt
    check 4 "collect: one placeholder for the host in names and contents" \
        sh -c 'grep -q "job42-<host-1>/dmesg-<host-1>.txt" members.txt &&
               grep -q "<host-1> kernel: NVRM" contents.txt && ! grep -q "<host-2>" contents.txt'
    "$GOTCHA_BIN" scan b.tar.zst >rescan.txt 2>/dev/null
    check 4 "collect: the bundle still scans to the same first error" \
        has rescan.txt "First error: Xid 79: GPU has fallen off the bus"
    cd - >/dev/null || return
}

# Item 12: HTML timeline lanes labelled by the shortest unique suffix of their path; "none" on a
# completed run is not red.
item12_html() {
    mkdir -p "$T/lanes/node-a" "$T/lanes/node-b"
    for n in a b; do
        printf '%s\n' "2026-05-12 13:05:1$([ $n = a ] && echo 4 || echo 6),000 INFO step 1 loss 1.2" \
            "2026-05-12 13:05:20,000 INFO step 2 loss 1.1" >"$T/lanes/node-$n/train.log"
    done
    echo "[Tue May 12 13:05:15 2026] $XID79" >"$T/lanes/dmesg.txt"
    "$GOTCHA_BIN" scan -f html -o "$T/lanes.html" "$T/lanes" 2>/dev/null
    sed -n 's/.*<text x="6" y="[0-9.]*">\([^<]*\)<\/text>.*/\1/p' "$T/lanes.html" | sort >"$T/labels.txt"
    check 12 "three lanes, each labelled by its shortest unique suffix" \
        test "$(tr '\n' ' ' <"$T/labels.txt")" = "dmesg.txt node-a/train.log node-b/train.log "
    "$GOTCHA_BIN" scan -f html -o "$T/healthy.html" data/healthy.log
    check 12 "a completed run's none is marked completed" \
        has "$T/healthy.html" '<span class="id none completed">none</span>'
    check 12 "... and its verdict box too" has "$T/healthy.html" '<section class="verdict none completed">'
    check 12 "... which the style sheet draws green, not red" \
        sh -c 'grep -q "\.id\.none\.completed{background:#3b6e3b}" "$1" &&
               grep -q "\.verdict\.none\.completed{background:#f2f8f2;border-left-color:#3b6e3b}" "$1"' \
        - "$T/healthy.html"
}

item1_fault_over_symptom
item2_exit_status
item3_nothing_to_read
item4_redaction
item12_html

# --- record, collect, batch, command line, preflight, man page (items 5-11)
# (the section's helpers replace the ones above from here on; its failures show in the golden)
. ./live_setup.inc
cd "$TEST_TMP" || exit 1

# check ITEM WHAT CONDITION... : the condition is a command; its status decides.
check() {
    item=$1 what=$2
    shift 2
    if "$@" > /dev/null 2>&1; then echo "ok $item: $what"; else echo "FAIL $item: $what"; fi
}
# has FILE TEXT / hasnt FILE TEXT : a fixed string is (not) in FILE, which must exist.
has() { [ -f "$1" ] && grep -qF -- "$2" "$1"; }
hasnt() { [ -f "$1" ] && ! grep -qF -- "$2" "$1"; }
# json FILE EXPR : python3 evaluates EXPR on the JSON document d of FILE; true when truthy.
json() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}


# 5. record's outcome is the exit status it recorded; run.txt's fields are not log input.
item5() {
    use_gpu gb10
    "$GOTCHA_BIN" record -q -o r5-fail -- sh -c 'echo "step 1 loss 2.31"; exit 3' > /dev/null
    echo $? > r5-fail.rc
    "$GOTCHA_BIN" scan -f json r5-fail > r5-fail.json 2> /dev/null
    check 5 "record of 'exit 3' exits 3" [ "$(cat r5-fail.rc)" = 3 ]
    check 5 "its scan: outcome failed with exit status 3, at run.txt's exit line" json r5-fail.json \
        'd["outcome"] == "failed" and d["outcome_at"]["exit_status"] == 3 and d["outcome_at"]["path"].endswith("run.txt") and d["outcome_at"]["text"] == "exit: 3"'
    check 5 "run.txt is read as a run record, not as meminfo" json r5-fail.json \
        '[i["kind"] for i in d["inputs"] if i["path"].endswith("run.txt")] == ["run-record"]'
    "$GOTCHA_BIN" record -q -o r5-ok -- sh -c 'echo "step 1 loss 2.31"' > /dev/null
    "$GOTCHA_BIN" scan -f json r5-ok > r5-ok.json 2> /dev/null
    check 5 "a successful record scans as completed (exit status 0), not cut-off" json r5-ok.json \
        'd["outcome"] == "completed" and d["outcome_at"]["exit_status"] == 0'
    # the command line is echoed into run.txt: an error text among its arguments is not the
    # run's first error (the first error today)
    "$GOTCHA_BIN" record -q -o r5-args -- sh -c 'echo "step 1 loss 2.31"; exit 1' sh \
        'RuntimeError: CUDA error: an illegal memory access was encountered' > /dev/null
    "$GOTCHA_BIN" scan -f json r5-args > r5-args.json 2> /dev/null
    check 5 "run.txt was read (its command line is there)" has r5-args/run.txt 'illegal memory access'
    check 5 "an error text in the recorded command line is not the first error" json r5-args.json \
        'd["first_error"] is None and d["outcome"] == "failed"'
    # the line a shell prints for a signal is log input
    "$GOTCHA_BIN" record -q -o r5-seg -- sh -c 'echo "Epoch 1/3"; kill -SEGV $$' > /dev/null
    "$GOTCHA_BIN" scan -f json r5-seg > r5-seg.json 2> /dev/null
    check 5 "a SIGSEGV: failed with exit status 139, the shell's line is the first error" \
        json r5-seg.json \
        'd["outcome_at"]["exit_status"] == 139 and d["first_error"]["text"].startswith("Segmentation fault") and d["first_error"]["path"].endswith("run.txt")'
}

# wait_line FILE TEXT : at most 10 s until FILE holds TEXT
wait_line() {
    i=0
    while ! grep -q "$2" "$1" 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}

# 6. record starts CMD at once (host facts beside it); a second Ctrl-C escalates; "stopped by
# signal" only when it stopped CMD; the kernel log's window is kept, or its absence said.
item6() {
    use_gpu gb10
    # a python3 that takes 3 s to answer (a cold torch import): the command must not wait for it
    mkdir -p slowpy
    printf '#!/bin/sh\nsleep 3\nexec "%s/bin/python3" "$@"\n' "$live" > slowpy/python3
    chmod +x slowpy/python3
    t0=$(date +%s%N)
    PATH=$TEST_TMP/slowpy:$PATH "$GOTCHA_BIN" record -q -o r6 -- sh -c \
        'date +%s%N > r6-started; [ -e r6/preflight.txt ] && echo before > r6-facts || echo after > r6-facts'
    t1=$(cat r6-started 2> /dev/null || echo 0)
    # valgrind alone takes seconds to start gotcha: the bound is for the program, not the tool
    limit=500
    [ "${GOTCHA_VALGRIND:-}" = 1 ] && limit=5000
    check 6 "CMD started within 0.5 s" [ $(((t1 - t0) / 1000000)) -lt $limit ]
    check 6 "CMD started before the host facts were gathered" has r6-facts after
    check 6 "the host facts were still written beside it" has r6/host-facts.txt 'NVIDIA GB10'

    # a second interrupt: SIGTERM, then SIGKILL after --grace, both said
    "$GOTCHA_BIN" record -o r6-int --grace 1 -- sh -c \
        'trap "echo got INT" INT; trap "echo got TERM" TERM; echo ready; while :; do sleep 0.1; done' \
        > r6-int.out 2> r6-int.err &
    pid=$!
    wait_line r6-int.out ready
    kill -INT $pid
    wait_line r6-int.out 'got INT'
    kill -INT $pid
    wait $pid
    echo $? > r6-int.rc
    check 6 "the first interrupt reached the command (it trapped it)" has r6-int.out 'got INT'
    check 6 "a second interrupt: SIGTERM, said on stderr" has r6-int.err 'second interrupt: sent SIGTERM'
    check 6 "then SIGKILL after the grace period, said on stderr" has r6-int.err 'sent SIGKILL'
    check 6 "gotcha exits 137 (128 + SIGKILL)" [ "$(cat r6-int.rc)" = 137 ]

    # a signal the command handles and outlives: no "stopped by signal", the report follows
    "$GOTCHA_BIN" record -o r6-usr -- sh -c \
        'trap "touch r6-usr1" USR1; echo ready; while [ ! -e r6-usr1 ]; do sleep 0.1; done; echo "RuntimeError: CUDA error: unspecified launch failure" >&2; exit 1' \
        > r6-usr.out 2> r6-usr.err &
    pid=$!
    wait_line r6-usr.out ready
    kill -USR1 $pid
    wait $pid
    check 6 "a forwarded signal the command outlived: its failure is reported" has r6-usr.err 'outcome: failed'
    check 6 "and no 'stopped by signal' line" hasnt r6-usr.err 'stopped by signal'

    # no readable kernel log (dmesg restricted, no journal): said in run.txt and on stderr
    mkdir -p nokern
    printf '#!/bin/sh\necho "dmesg: read kernel buffer failed: Operation not permitted" >&2\nexit 1\n' \
        > nokern/dmesg
    printf '#!/bin/sh\necho "No journal files were found." >&2\nexit 0\n' > nokern/journalctl
    chmod +x nokern/dmesg nokern/journalctl
    PATH=$TEST_TMP/nokern:$PATH "$GOTCHA_BIN" record -o r6-nok -- sh -c 'exit 1' 2> r6-nok.err
    check 6 "no kernel log: run.txt says why" has r6-nok/run.txt 'kernel log: not readable (dmesg: failed'
    check 6 "no kernel log: stderr says so" has r6-nok.err 'gotcha: no kernel log kept'
    # dmesg restricted but the journal readable: the run's window from journalctl -k
    printf '#!/bin/sh\ncase "$*" in\n*--since*) echo "2026-12-01T08:35:12+0000 spark kernel: NVRM: Xid (PCI:000f:01:00): 79, pid=4242, name=python3, GPU has fallen off the bus." ;;\n*) echo "2026-12-01T08:00:00+0000 spark kernel: Linux version 6.11.0-1016-nvidia" ;;\nesac\n' \
        > nokern/journalctl
    PATH=$TEST_TMP/nokern:$PATH "$GOTCHA_BIN" record -q -o r6-jrn -- sh -c 'exit 1'
    check 6 "dmesg restricted: the window comes from journalctl -k" has r6-jrn/kernel.log 'GPU has fallen off the bus'
    check 6 "and run.txt names the source" has r6-jrn/run.txt 'from journalctl -k'
}

# count FILE TEXT : how many times a fixed string occurs in FILE
count() { grep -oF -- "$2" "$1" | wc -l | tr -d ' '; }

# 7. collect: members relative to the run, real mtimes, no facts of this host unless --host,
# no warning about the bundle's own report, no overwrite without --force, a write error names
# the path once.
item7() {
    use_gpu gb10
    "$GOTCHA_BIN" record -q -o r7 -- "$live/oom-run.sh" > /dev/null 2>&1
    touch -d '2025-11-25 08:35:13' r7/stderr.log
    "$GOTCHA_BIN" collect -q -o b7.tar.zst "$TEST_TMP/r7" > /dev/null 2> b7.err
    tar --zstd -tf b7.tar.zst > b7.list
    check 7 "an absolute PATH: members are gotcha-bundle/<run>/..." has b7.list 'gotcha-bundle/r7/stderr.log'
    check 7 "and no member names the collecting machine's path" hasnt b7.list "${TEST_TMP#/}"
    mkdir -p x7 && tar --zstd -xf b7.tar.zst -C x7
    check 7 "a member keeps its file's mtime"         [ "$(stat -c %Y x7/gotcha-bundle/r7/stderr.log)" = "$(stat -c %Y r7/stderr.log)" ]
    check 7 "the report's mtime is not 1970" [ "$(stat -c %Y x7/gotcha-bundle/gotcha-report.md)" -gt 86400 ]
    # a run recorded elsewhere (logs only): no facts of this host unless asked
    mkdir -p elsewhere && cp r7/stderr.log r7/stdout.log elsewhere/
    "$GOTCHA_BIN" collect -q -o b7-else.tar.zst elsewhere > /dev/null
    tar --zstd -tf b7-else.tar.zst > b7-else.list
    check 7 "a run recorded elsewhere gets no facts of this host" hasnt b7-else.list collect-host
    check 7 "its logs are bundled" has b7-else.list 'gotcha-bundle/elsewhere/stderr.log'
    "$GOTCHA_BIN" collect -q --host -o b7-host.tar.zst elsewhere > /dev/null
    tar --zstd -tf b7-host.tar.zst > b7-host.list
    check 7 "--host adds them" has b7-host.list 'gotcha-bundle/collect-host/host-facts.txt'
    # the bundle's own report is passed over without a word
    "$GOTCHA_BIN" scan b7.tar.zst > b7-scan.out 2> b7-scan.err
    check 7 "rescanning the bundle reads it" has b7-scan.out 'G3'
    check 7 "and says nothing of the bundle's own report" hasnt b7-scan.err 'own report'
    # an existing -o file
    cp b7-else.tar.zst keep.tar.zst
    "$GOTCHA_BIN" collect -q -o b7-else.tar.zst r7 > /dev/null 2> b7-exists.err
    echo $? > b7-exists.rc
    check 7 "an existing -o file: exit 2" [ "$(cat b7-exists.rc)" = 2 ]
    check 7 "it is not overwritten" cmp -s keep.tar.zst b7-else.tar.zst
    check 7 "and stderr says --force replaces it" has b7-exists.err '--force'
    "$GOTCHA_BIN" collect -q --force -o b7-else.tar.zst r7 > /dev/null
    check 7 "--force replaces it" eval '! cmp -s keep.tar.zst b7-else.tar.zst'
    # write errors: the path once
    "$GOTCHA_BIN" collect -q -o no-such-dir/b.tar.zst r7 > /dev/null 2> b7-nodir.err
    check 7 "a missing directory: the path is named once" [ "$(count b7-nodir.err no-such-dir/b.tar.zst)" = 1 ]
    # /dev/full (every Linux has it) fails every write with ENOSPC
    "$GOTCHA_BIN" collect -q --force -o /dev/full r7 > /dev/null 2> b7-full.err
    echo $? > b7-full.rc
    check 7 "a full disk: exit 2" [ "$(cat b7-full.rc)" = 2 ]
    check 7 "a full disk: the path is named once" [ "$(count b7-full.err /dev/full)" = 1 ]
    check 7 "a full disk: the reason is the system's" has b7-full.err 'No space left on device'
    check 7 "and the device is left alone" [ -c /dev/full ]
}

# 8. batch: rows carry the outcome; the summary tells healthy runs from failed ones no gotcha
# explains; a warn-level line or pip's "Successfully uninstalled" is never a first error; CSV
# carries the first error's text. The lines: HF Trainer's final metrics (corpus/G4-a), a Python
# traceback, gpud's warn line on a GB10 (corpus/healthy-bf16-sft-ngc-bundle), pip's uninstall
# transcript (corpus/G9-b).
item8() {
    mkdir -p b8/ok b8/fail b8/warn b8/pip
    cat > b8/ok/train.log << 'LOG'
2025-11-25 08:35:12,000 INFO __main__: step 100 loss 1.23
{'train_runtime': 7326.28, 'train_samples_per_second': 1.583, 'train_steps_per_second': 0.396, 'train_loss': 0.5183, 'epoch': 0.73}
LOG
    cat > b8/fail/train.log << 'LOG'
2025-11-25 08:35:12,000 INFO __main__: step 100 loss 1.23
Traceback (most recent call last):
  File "/home/dev/ft/train.py", line 77, in <module>
    batch = collate(examples)
KeyError: 'labels'
LOG
    cat > b8/warn/gpud.log << 'LOG'
{"level":"warn","ts":"2025-11-26T12:31:47.603Z","caller":"memory/memory.go:100","msg":"NVML memory APIs not supported for unified memory device, falling back to system memory","product_name":"NVIDIA-GB10","error":"Not Supported"}
LOG
    cp b8/ok/train.log b8/warn/train.log
    cat > b8/pip/pip-install.log << 'LOG'
Installing collected packages: triton, transformers
  Attempting uninstall: triton
    Found existing installation: triton 3.5.0
    Uninstalling triton-3.5.0:
      Successfully uninstalled triton-3.5.0
Successfully installed transformers-4.57.1 triton-3.4.0
LOG
    "$GOTCHA_BIN" batch b8 > b8.ndjson 2> /dev/null
    "$GOTCHA_BIN" batch -f csv b8 > b8.csv 2> /dev/null
    "$GOTCHA_BIN" batch --summary-only b8 > b8.summary 2> /dev/null
    row() { # RUN EXPR: EXPR on the NDJSON row r of run b8/RUN
        python3 -c 'import json, sys
rows = {json.loads(l)["run"]: json.loads(l) for l in open("b8.ndjson")}
r = rows["b8/" + sys.argv[1]]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
    }
    check 8 "every NDJSON row carries its outcome" row ok 'r["outcome"] == "completed"'
    check 8 "a traceback run's row: outcome failed" row fail 'r["outcome"] == "failed"'
    check 8 "CSV has outcome and first_error_text columns"         has b8.csv 'run,outcome,verdict,confidence,first_error,first_error_at,fingerprint,first_error_text,'
    check 8 "CSV carries the first error's text" has b8.csv "KeyError: 'labels'"
    check 8 "CSV rows carry the outcome" has b8.csv 'b8/ok,completed,none,'
    check 8 "the summary counts failed runs with no gotcha apart" grep -Eq '^  none \(failed\) +1 ' b8.summary
    check 8 "and healthy ones apart" grep -Eq '^  none \(completed\) +2 ' b8.summary
    check 8 "the summary has an outcomes table" grep -Eq '^  failed +1 ' b8.summary
    check 8 "gpud's warn-level line was read" row warn 'r["inputs"] == 2'
    check 8 "a warn-level line is not a first error" row warn 'r["first_error"] is None'
    check 8 "pip's uninstall transcript names G9" row pip 'r["verdict"] == "G9"'
    check 8 "pip's 'Successfully uninstalled' is not a first error" row pip \
        'r["first_error"] is None or "Successfully uninstalled" not in r["first_error"]["text"]'
}

# 9. the command line: standard input when it is not a terminal, a mistyped command named, several
# formats only into files. The Xid line: NVIDIA's Xid catalogue shape (corpus/other-03).
item9() {
    xid='NVRM: Xid (PCI:0000:01:00): 79, pid=123, name=python, GPU has fallen off the bus.'
    echo "$xid" | "$GOTCHA_BIN" > i9-stdin.out 2> /dev/null
    check 9 "'cat dmesg | gotcha' reads standard input" has i9-stdin.out '<stdin>'
    check 9 "and names what it read" has i9-stdin.out 'Xid 79'
    "$GOTCHA_BIN" prefight > i9-typo.out 2> i9-typo.err
    echo $? > i9-typo.rc
    check 9 "a mistyped command: exit 2" [ "$(cat i9-typo.rc)" = 2 ]
    check 9 "named, with the command meant" has i9-typo.err "unknown command 'prefight' (did you mean 'preflight'?)"
    check 9 "and nothing scanned" [ ! -s i9-typo.out ]
    "$GOTCHA_BIN" frobnicate > /dev/null 2> i9-word.err
    check 9 "a word close to no command: unknown command" has i9-word.err "unknown command 'frobnicate'"
    # a file whose name is a bare word is a path, not a command
    echo "$xid" > dmesg
    "$GOTCHA_BIN" dmesg > i9-file.out 2> /dev/null
    check 9 "an existing file named like a word is scanned" has i9-file.out 'Xid 79'
    "$GOTCHA_BIN" -f json,md dmesg > i9-fmt.out 2> i9-fmt.err
    echo $? > i9-fmt.rc
    check 9 "-f json,md without -o: exit 2" [ "$(cat i9-fmt.rc)" = 2 ]
    check 9 "a usage error, nothing on standard output" [ ! -s i9-fmt.out ]
    check 9 "which says -o is needed" has i9-fmt.err '-o BASE'
    "$GOTCHA_BIN" -f json,md -o i9-rep dmesg > /dev/null 2>&1
    check 9 "-f json,md -o BASE writes both" sh -c '[ -s i9-rep.json ] && [ -s i9-rep.md ]'
}

# 10. preflight: a host with no NVIDIA GPU says so once and skips what would pass; G7's "stay on
# FP8" is a WARN that --strict counts; temperatures have units; G1 points at `gotcha explain`.
item10() {
    # no GPU: no nvidia-smi on PATH, a python3 without torch, the host files of a container
    mkdir -p nogpu
    ln -sf "$live/bin/python3" nogpu/python3
    # (and what tests/tools/valgrind_gotcha.sh needs, when the tests run under valgrind)
    for t in ldconfig sleep dirname valgrind valgrind.bin; do
        p=$(command -v "$t") && ln -sf "$p" "nogpu/$t"
    done
    PATH=$TEST_TMP/nogpu PYTHONPATH= GOTCHA_HOST_ROOT=$live/h100/root "$GOTCHA_BIN" preflight \
        > i10-nogpu.out 2> i10-nogpu.err
    check 10 "no GPU: said in one line" [ "$(grep -c 'no NVIDIA GPU on this host' i10-nogpu.err)" = 1 ]
    check 10 "ten check lines all the same" [ "$(grep -c '^G[0-9]* [A-Z]*: ' i10-nogpu.out)" = 10 ]
    check 10 "no check PASSes without a GPU" hasnt i10-nogpu.out ' PASS: '
    check 10 "G6 is SKIP" grep -q '^G6 SKIP: no NVIDIA GPU on this host' i10-nogpu.out
    check 10 "G9 is SKIP, and still says it is a container" \
        grep -q '^G9 SKIP: no NVIDIA GPU on this host; running inside a container' i10-nogpu.out
    check 10 "G10 is SKIP" grep -q '^G10 SKIP: no NVIDIA GPU on this host' i10-nogpu.out
    use_gpu gb10
    "$GOTCHA_BIN" preflight > i10-gb10.out 2> i10-gb10.err
    echo $? > i10-gb10.rc
    "$GOTCHA_BIN" preflight --strict > /dev/null 2>&1
    echo $? > i10-strict.rc
    check 10 "a GB10 says nothing of a missing GPU" [ ! -s i10-gb10.err ]
    check 10 "G7 'partial ... stay on FP8' is a WARN" grep -q '^G7 WARN: .*stay on FP8' i10-gb10.out
    check 10 "which does not fail the plain preflight" [ "$(cat i10-gb10.rc)" = 0 ]
    check 10 "and --strict counts it" [ "$(cat i10-strict.rc)" = 1 ]
    check 10 "temperatures carry their unit" grep -q '^G4 INFO: 41 °C, 11.46 W' i10-gb10.out
    use_gpu gb10 gb10-cu128
    "$GOTCHA_BIN" preflight > i10-cu128.out 2> /dev/null
    check 10 "G1 points at 'gotcha explain G1'" grep -q '^G1 FAIL: .*gotcha explain G1)' i10-cu128.out
    check 10 "not at 'see gotcha G1'" hasnt i10-cu128.out 'see gotcha G1'
}

# usage_lists_options CMD : every option of CMD --help's list ("  -o, --output FILE", "      --force")
# is in its Usage lines, by its short or its long name
usage_lists_options() {
    "$GOTCHA_BIN" "$1" --help > "i11-$1.help"
    sed -n '/^Usage:/,/^[^ U]/p' "i11-$1.help" | sed '$d' > "i11-$1.usage"
    [ -s "i11-$1.usage" ] || return 1
    sed -n 's/^  \(-[a-zA-Z]\), \(--[a-z-]*\).*/\1 \2/p; s/^      \(--[a-z-]*\).*/- \1/p' \
        "i11-$1.help" > "i11-$1.opts"
    while read -r short long; do
        [ "$long" = --help ] && continue
        grep -qE -- "(^|[[ |])$long([] |]|$)" "i11-$1.usage" && continue
        [ "$short" != - ] && grep -qE -- "(^|[[ |])$short([] |]|$)" "i11-$1.usage" && continue
        return 1
    done < "i11-$1.opts"
}

# 11. the man page renders clean; batch --help lists --platform; collect's (and record's) usage
# lists every option.
item11() {
    page=$here/../../docs/gotcha.1
    check 11 "the man page source holds no control bytes (a form feed from a printf-ed escape)" \
        sh -c "tr -d '\\n' < '$page' | LC_ALL=C grep -q '[[:cntrl:]]' && exit 1 || exit 0"
    if command -v man > /dev/null 2>&1; then
        man --warnings -l "$page" > i11-man.txt 2> i11-man.err
    else # man-db is in make deps; groff (which man drives) says the same
        groff -ww -man -Tutf8 "$page" > i11-man.txt 2> i11-man.err
    fi
    echo $? > i11-man.rc
    check 11 "man --warnings renders it with no warning" sh -c '[ "$(cat i11-man.rc)" = 0 ] && [ ! -s i11-man.err ]'
    col -bx < i11-man.txt | tr -s ' \n' ' ' > i11-man.flat
    check 11 "the preflight line format renders as text, no font escape left" \
        has i11-man.flat 'Gn STATUS: text, where STATUS is PASS, FAIL, WARN, SKIP, INFO or UNKNOWN'
    "$GOTCHA_BIN" batch --help > i11-batch.help
    check 11 "batch --help lists --platform" has i11-batch.help '--platform P'
    check 11 "collect's usage lists every option" usage_lists_options collect
    check 11 "record's usage lists every option" usage_lists_options record
}

item5
item6
item7
item8
item9
item10
item11

[ "$fails" -eq 0 ]
