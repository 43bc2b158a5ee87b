#!/usr/bin/env python3
"""mutate.py — mutation fuzzing of what smtbench reads: N mutants each of a matrix folder, a
one-process folder and a hyperfine export (tests/fixtures/folders), each read by analyze,
report (into a scratch --out) and fleet, and every RESUME_EVERY-th folder mutant continued by
--resume (a folder that is complete, damaged or refused does no trial). Counts, per seed:
crashes (a signal, or a sanitizer's report: build with `make SANITIZE=1` and give
build/sanitize/smtbench), raw control characters (bytes below 0x20 other than tab and newline,
DEL, and the bidirectional controls) in stdout, stderr and the reports written, and exits other
than 0, 1, 2. Not part of `make test` at full size (minutes under ASan); the fixed-seed small run
is tests/e2e/test_fuzz_mutants.sh.

    mutate.py SMTBENCH [--mutants N] [--seed S] [--resume-every K] [--keep DIR] [--kind K]

Prints one line per seed kind and a total; exits 1 when any crash or raw control was found
(each printed with the mutant's file, kept under --keep when given).
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "folders")
RAW = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c")
HOSTILE = [b"", b"-1", b"nan", b"inf", b"1e308", b"1e-320", b"0", b"99999999999999999999",
           b"\x1b[31m", b"\xe2\x80\xae", b"\xff\xfe", b"a,b", b'"', b"\\", b"%s%n", b"\x00",
           b"<script>", b"9" * 400, b"solo", b"sibling", b"zzz", b"-0", b"0x10", b"1,2"]


def mutate_bytes(data, rnd):
    """One to four edits of the bytes: flip, delete, duplicate or cut lines, replace a field."""
    for _ in range(rnd.randint(1, 4)):
        kind = rnd.randrange(7)
        if not data:
            data = rnd.choice(HOSTILE)
            continue
        at = rnd.randrange(len(data))
        lines = data.split(b"\n")
        li = rnd.randrange(len(lines))
        if kind == 0:
            data = data[:at] + bytes([rnd.randrange(256)]) + data[at + 1:]
        elif kind == 1:
            data = data[:at]
        elif kind == 2:
            del lines[li]
            data = b"\n".join(lines)
        elif kind == 3:
            lines.insert(li, lines[li])
            data = b"\n".join(lines)
        elif kind == 4:
            fields = lines[li].split(b",")
            fields[rnd.randrange(len(fields))] = rnd.choice(HOSTILE)
            lines[li] = b",".join(fields)
            data = b"\n".join(lines)
        elif kind == 5:
            data = data[:at] + rnd.choice(HOSTILE) + data[at:]
        else:
            lines[li] = lines[li] * rnd.randint(2, 50)
            data = b"\n".join(lines)
    return data


def mutate_json(data, rnd):
    """A JSON-level edit (a key dropped, a value's type or value changed), else bytes."""
    try:
        doc = json.loads(data)
    except ValueError:
        return mutate_bytes(data, rnd)
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + [i])
    walk(doc, [])
    path = rnd.choice(paths[1:] or [[]])
    if not path:
        return mutate_bytes(data, rnd)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    choice = rnd.randrange(4)
    values = [None, -1, 0, 1e308, "x", "\x1b[2J\u202e", [], {}, True, "9" * 300, 2 ** 63]
    if choice == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = rnd.choice(values)
    return json.dumps(doc).encode()


def mutant_folder(seed_dir, out, rnd):
    shutil.copytree(seed_dir, out)
    names = [n for n in ("samples.csv", "meta.json") if os.path.exists(os.path.join(out, n))]
    for name in rnd.sample(names, rnd.randint(1, len(names))):
        path = os.path.join(out, name)
        data = open(path, "rb").read()
        data = mutate_json(data, rnd) if name.endswith(".json") and rnd.random() < 0.6 \
            else mutate_bytes(data, rnd)
        open(path, "wb").write(data)
    for name in os.listdir(out):  # the seed's own reports: each mutant's are its own
        if name.startswith("report.") or name.endswith(".svg"):
            os.unlink(os.path.join(out, name))


def run(cmd, env, timeout=60):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or b"", e.stderr or b""


def problems_of(rc, out, err, files):
    found = []
    if rc == "timeout":
        found.append("timeout")
    elif rc < 0 or rc >= 128 or rc == 86 or b"Sanitizer" in err or b"runtime error" in err:
        found.append(f"crash (exit {rc}): {err[-400:]!r}")
    elif rc not in (0, 1, 2):
        found.append(f"exit {rc}")
    for what, data in [("stdout", out), ("stderr", err)] + files:
        m = RAW.search(data)
        if m:
            found.append(f"raw control {m.group()!r} in {what} near {data[max(0, m.start() - 60):m.end() + 20]!r}")
    return found


def written(dirs):
    files = []
    for d in dirs:
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if name.startswith(("report.", "fleet.")) or name.endswith(".svg"):
                files.append((name, open(os.path.join(d, name), "rb").read()))
    return files


def main():
    a = argparse.ArgumentParser()
    a.add_argument("smtbench")
    a.add_argument("--mutants", type=int, default=1000)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--resume-every", type=int, default=10)
    a.add_argument("--keep")
    a.add_argument("--kind", choices=("matrix", "one-process", "hyperfine"),
                   help="only this seed (default: all three)")
    args = a.parse_args()
    env = dict(os.environ, ASAN_OPTIONS="exitcode=86:detect_leaks=1",
               UBSAN_OPTIONS="halt_on_error=1:exitcode=86:print_stacktrace=1",
               SMTBENCH_KERNEL_DIR=os.path.join(os.path.dirname(os.path.abspath(args.smtbench)),
                                                "kernels"))
    tmp = tempfile.mkdtemp(prefix="smtbench-mutate.")
    seeds = [("matrix", os.path.join(FIXTURES, "matrix"), "matrix"),
             ("one-process", os.path.join(FIXTURES, "one-process"), "run"),
             ("hyperfine", os.path.join(FIXTURES, "hyperfine.json"), None)]
    totals = {"mutants": 0, "runs": 0, "crashes": 0, "raw": 0, "other": 0}
    bad = 0
    for kind, seed, command in seeds:
        if args.kind and kind != args.kind:
            continue
        rnd = random.Random(f"{args.seed}-{kind}")
        counts = {"runs": 0, "crashes": 0, "raw": 0, "other": 0, "exits": {}}
        for i in range(args.mutants):
            work = os.path.join(tmp, f"{kind}-{i}")
            os.makedirs(work)
            if command is None:
                target = os.path.join(work, "export.json")
                data = open(seed, "rb").read()
                data = mutate_json(data, rnd) if rnd.random() < 0.6 else mutate_bytes(data, rnd)
                open(target, "wb").write(data)
                cmds = [[args.smtbench, "analyze", target]]
            else:
                target = os.path.join(work, "folder")
                mutant_folder(seed, target, rnd)
                out = os.path.join(work, "out")
                cmds = [[args.smtbench, "analyze", target],
                        [args.smtbench, "report", target, "--out", out],
                        [args.smtbench, "fleet", target, "--out", os.path.join(work, "fleet")]]
                if args.resume_every and i % args.resume_every == 0:
                    cmds.append([args.smtbench, command, "--resume", target, "--progress", "none"])
            for cmd in cmds:
                rc, out_b, err_b = run(cmd, env)
                counts["runs"] += 1
                counts["exits"][rc] = counts["exits"].get(rc, 0) + 1
                files = written([os.path.join(work, "out"), os.path.join(work, "fleet")]) \
                    if command else []
                found = problems_of(rc, out_b, err_b, files)
                for f in found:
                    key = "crashes" if f.startswith(("crash", "timeout")) else \
                        "raw" if f.startswith("raw") else "other"
                    counts[key] += 1
                    print(f"{kind} mutant {i}: {' '.join(os.path.basename(c) for c in cmd[1:2])}: {f}")
                if found and args.keep:
                    shutil.copytree(work, os.path.join(args.keep, f"{kind}-{i}"), dirs_exist_ok=True)
                bad += bool(found)
            shutil.rmtree(work, ignore_errors=True)
            if (i + 1) % 100 == 0:
                print(f"# {kind}: {i + 1} mutants, {counts['runs']} runs, {counts['crashes']} "
                      f"crashes, {counts['raw']} raw controls so far", file=sys.stderr, flush=True)
        exits = ", ".join(f"{k}: {v}" for k, v in sorted(counts["exits"].items(), key=str))
        print(f"{kind}: {args.mutants} mutants, {counts['runs']} runs: {counts['crashes']} crashes, "
              f"{counts['raw']} raw controls, {counts['other']} other exits (exit codes {exits})")
        totals["mutants"] += args.mutants
        for k in ("runs", "crashes", "raw", "other"):
            totals[k] += counts[k]
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"total: {totals['mutants']} mutants, {totals['runs']} runs: {totals['crashes']} crashes, "
          f"{totals['raw']} raw controls, {totals['other']} other exits")
    return 1 if bad else 0


sys.exit(main())
