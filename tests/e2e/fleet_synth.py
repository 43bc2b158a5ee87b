#!/usr/bin/env python3
"""fleet_synth.py — writes a SYNTHETIC results folder (meta.json + samples.csv in the format
`smtbench run` writes, see results/README.md and runner/store.c) for the fleet tests: a node whose
first placement takes RATIO times the second's user CPU time, with multiplicative noise. Not a
measurement: only for testing `smtbench fleet` on fleets with known node effects.

    fleet_synth.py DIR HOST [--ratio R] [--noise SD] [--trials N] [--cpu MODEL] [--smt on|off]
                   [--sibling] [--version V] [--status S] [--seed N] [--iters N]
                   [--mixed] [--torn] [--no-meta] [--solo-only]
"""
import argparse
import json
import os
import random

COLUMNS = ("trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,"
           "stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,"
           "started_utc")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("host")
    p.add_argument("--ratio", type=float, default=1.25)
    p.add_argument("--noise", type=float, default=0.01)
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--cpu", default="Synthetic CPU 9000 (test data)")
    p.add_argument("--smt", default="on")
    p.add_argument("--sibling", action="store_true")
    p.add_argument("--version", default="0.1.0")
    p.add_argument("--status", default="complete")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iters", type=int, default=1000000)
    p.add_argument("--mixed", action="store_true")
    p.add_argument("--torn", action="store_true")
    p.add_argument("--no-meta", action="store_true")
    p.add_argument("--solo-only", action="store_true")
    a = p.parse_args()
    rnd = random.Random(a.seed)
    first = "sibling" if a.sibling else "non-sibling"
    second = "non-sibling" if a.sibling else "solo"
    placements = [second] if a.solo_only else [first, second]
    base = 0.1
    os.makedirs(a.dir, exist_ok=True)
    rows = [COLUMNS]
    trial = 0
    for block in range(a.trials):
        for pl in placements:
            procs = 1 if pl == "solo" else 2
            mean = base * (a.ratio if pl == first else 1.0)
            for proc in range(procs):
                work = "pause" if a.mixed and block % 2 else "nop"
                u = mean * (1 + rnd.gauss(0, a.noise))
                rows.append(f"{trial},{block},0,{pl},{proc},a,{proc},{work},ok,0,,{u:.6f},0.000000,"
                            f"{u:.6f},0.0,{u:.6f},1,0,1300,0.99,,0.10,2026-11-30T00:00:00Z")
            trial += 1
    text = "\n".join(rows) + "\n"
    if a.torn:
        text += "%d,%d,0,%s,0,a,0,nop,ok,0,,0.10" % (trial, a.trials, first)
    with open(os.path.join(a.dir, "samples.csv"), "w") as f:
        f.write(text)
    if a.no_meta:
        return
    meta = {
        "tool": "smtbench", "version": a.version,
        "command_line": ["smtbench", "run", "--kernel", "nop", "--iters", str(a.iters)],
        "created_utc": "2026-11-30T00:00:00Z", "host": a.host,
        "os_kernel": "Linux 6.1.0-test #1 SMP (synthetic)", "cpu_model": a.cpu,
        "hwloc_version": "2.9.0",
        "smt_control": "on" if a.smt == "on" else "off", "smt_active": "1" if a.smt == "on" else "0",
        "governor": None, "virtual_machine": False, "cpu_quota": None, "hypervisor": None,
        "placements": [{"name": n, "pus": [0, 1] if n != "solo" else [0], "shares": None}
                       for n in placements],
        "skipped_placements": [], "seed": a.seed,
        "settings": {"kernel": "nop", "beside_kernel": None, "iters": a.iters, "beside_iters": None,
                     "command": None, "beside_command": None, "trials": a.trials,
                     "duration_s": None, "warmup": 0, "placements": sorted(placements),
                     "pair": None},
        "workloads": {"a": {"name": "nop", "path": "/synthetic/nop", "argv": ["nop", str(a.iters)],
                            "kernel": True}, "b": None},
        "status": a.status, "trials_done": trial,
    }
    with open(os.path.join(a.dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)


main()
