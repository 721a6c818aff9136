# `gotcha` alone on a terminal: short usage on stderr, exit 2 (with standard input not a
# terminal it reads it: first_hour.sh, item 9). A pseudo-terminal stands in for the user's.
python3 -c 'import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1]])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode().replace("\r\n", "\n"))
print("exit", os.waitstatus_to_exitcode(st))' "$GOTCHA_BIN"
