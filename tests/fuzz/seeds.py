#!/usr/bin/env python3
"""tests/fuzz/seeds.py OUT - write each harness's seed corpus into OUT/HARNESS/ (tests/fuzz/README.md).

Seeds are made at fuzz time from what the repository already holds, so no corpus is committed:
  - time: the first lines of every log in corpus/ and tests/realworld*/ (one record each);
  - classify: each file's name, a NUL, then its first 64 KiB;
  - smi: each nvidia-smi file (and meminfo / free output) with a leading kind byte, for each kind;
  - pack: every patterns/*.json, and each of its entries alone;
  - ingest: each log plain, compressed (gzip, zstd, xz, bzip2, lz4) and a few scenarios as tar,
    tar.gz, tar.zst and zip archives;
  - scan: each scenario's files joined in the harness's multi-file format (fuzz_scan.c).
Compressed forms use the command-line tools when present (make deps installs them).
"""
import gzip, io, json, os, shutil, subprocess, sys, tarfile, zipfile, hashlib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOTS = ["corpus", "tests/realworld", "tests/realworld2"]
SEED_LINES = 12                # first records of each log seeded for the tokenizer
MAX_SEED = 64 * 1024           # bytes of a file kept in a seed: libFuzzer mutates short inputs faster
SCAN_FILE_MAX = 4096           # bytes of each file of a whole-run seed: a scan costs ~1 ms a KiB under ASan
SMI_KINDS = 8                  # fuzz_smi.c: kinds[] has 8 entries
SCAN_NAMES = ["train.log", "stderr.log", "dmesg.log", "nvidia-smi.txt", "nvidia-smi-q.txt",
              "nvidia-smi.csv", "dmon.log", "pip-install.log", "pip-freeze.txt", "collect_env.txt",
              "meminfo.txt", "vllm.log", "rank1.log", "preflight.txt", "journalctl-k.log",
              "logs.tar.gz"]  # fuzz_scan.c names[]


def scenarios():
    for root in ROOTS:
        d = os.path.join(TOP, root)
        if not os.path.isdir(d):
            continue
        for s in sorted(os.listdir(d)):
            sd = os.path.join(d, s)
            if os.path.isfile(os.path.join(sd, "expected.json")):
                files = []
                for dp, _, fs in os.walk(sd):
                    for f in fs:
                        if f != "expected.json":
                            files.append(os.path.join(dp, f))
                yield sd, sorted(files)


def decoded(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:2] == b"\x1f\x8b":
        try:
            b = gzip.decompress(b)
        except Exception:
            pass
    return b


def put(out, harness, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def tool(cmd, data):
    if not shutil.which(cmd[0]):
        return None
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return p.stdout if p.returncode == 0 else None


def main(out):
    shutil.rmtree(out, ignore_errors=True)
    scen = list(scenarios())
    for sd, files in scen:
        joined = b""
        for i, path in enumerate(files):
            raw = open(path, "rb").read()
            text = decoded(path)[:MAX_SEED]
            base = os.path.basename(path)
            for line in text.splitlines()[:SEED_LINES]:
                if line.strip():
                    put(out, "time", line[:512])
            put(out, "classify", base.encode() + b"\0" + text)
            low = base.lower()
            if "smi" in low or "dmon" in low or "meminfo" in low or "free" in low:
                for k in range(SMI_KINDS):
                    put(out, "smi", bytes([k]) + text)
            put(out, "ingest", raw[:MAX_SEED] if raw[:2] != b"\x1f\x8b" else raw)
            k = next((j for j, n in enumerate(SCAN_NAMES) if n.split(".")[0] in low), i)
            joined += (b"" if i == 0 and not joined else b"\0@@" + bytes([k % 256])) + text[:SCAN_FILE_MAX]
        put(out, "scan", joined)
    # compressed and archived forms of a sample of logs
    sample = [f for _, fs in scen[::6] for f in fs[:2]]
    for path in sample:
        text = decoded(path)[:MAX_SEED]
        for cmd in (["gzip", "-c"], ["zstd", "-q", "-c"], ["xz", "-c"], ["bzip2", "-c"],
                    ["lz4", "-q", "-c"]):
            z = tool(cmd, text)
            if z:
                put(out, "ingest", z)
    for sd, files in scen[::10]:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as t:
            for f in files:
                data = decoded(f)[:16384]
                ti = tarfile.TarInfo(os.path.relpath(f, sd))
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
        tar = buf.getvalue()
        put(out, "ingest", tar)
        put(out, "ingest", gzip.compress(tar))
        z = tool(["zstd", "-q", "-c"], tar)
        if z:
            put(out, "ingest", z)
        zb = io.BytesIO()
        with zipfile.ZipFile(zb, "w", zipfile.ZIP_DEFLATED) as zf:
            for f in files:
                zf.writestr(os.path.relpath(f, sd), decoded(f)[:16384])
        put(out, "ingest", zb.getvalue())
        put(out, "scan", b"\0@@" + bytes([SCAN_NAMES.index("logs.tar.gz")]) + gzip.compress(tar))
    # the pack: each shipped file, and each entry alone
    pdir = os.path.join(TOP, "patterns")
    for f in sorted(os.listdir(pdir)):
        if not f.endswith(".json"):
            continue
        b = open(os.path.join(pdir, f), "rb").read()
        put(out, "pack", b)
        for e in json.loads(b)["entries"]:
            put(out, "pack", json.dumps({"entries": [e]}, indent=1).encode())
    for h in ("time", "classify", "smi", "pack", "ingest", "scan"):
        d = os.path.join(out, h)
        n = len(os.listdir(d)) if os.path.isdir(d) else 0
        print("seeds %-8s %5d" % (h, n))


if __name__ == "__main__":
    main(sys.argv[1])
