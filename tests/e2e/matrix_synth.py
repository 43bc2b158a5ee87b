#!/usr/bin/env python3
"""matrix_synth.py — writes a SYNTHETIC matrix folder (meta.json with its "matrix" object and
samples.csv, in the format `smtbench matrix` writes, see results/README.md) for the tests of the
matrix's reports and of `smtbench fleet` over matrix folders: each victim alone takes 0.1 s of
user time, and beside an aggressor RATIO times that, with multiplicative noise. Not a
measurement: only for testing the analysis on cells with known slowdowns.

    matrix_synth.py DIR HOST [--kernels A,B,...] [--ratio VICTIM:AGGRESSOR=R ...] [--default R]
                    [--noise SD] [--blocks N] [--cpu MODEL] [--placement P] [--seed N]
                    [--rope PCT] [--status S]
"""
import argparse
import json
import os
import random

COLUMNS = ("trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,"
           "stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,"
           "started_utc,foreign_s,steal_s,leftovers")


def row(trial, block, placement, proc, role, pu, work, u):
    return (f"{trial},{block},0,{placement},{proc},{role},{pu},{work},ok,0,,{u:.6f},0.000000,"
            f"{u:.6f},0.0,{u:.6f},1,0,1300,0.99,,0.10,2026-11-30T00:00:00Z,0.000,0.000,0")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("host")
    p.add_argument("--kernels", default="nop,mul-latency")
    p.add_argument("--ratio", action="append", default=[],
                   help="VICTIM:AGGRESSOR=R, the victim's slowdown beside the aggressor")
    p.add_argument("--default", type=float, default=1.0, help="every other cell's slowdown")
    p.add_argument("--noise", type=float, default=0.01)
    p.add_argument("--blocks", type=int, default=12)
    p.add_argument("--cpu", default="Synthetic CPU 9000 (test data)")
    p.add_argument("--placement", default="sibling")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rope", type=float, default=None)
    p.add_argument("--status", default="complete")
    p.add_argument("--cores", type=int, default=None, help="meta.json's topology.cores")
    a = p.parse_args()
    kernels = a.kernels.split(",")
    ratios = {}
    for r in a.ratio:
        cell, value = r.split("=")
        victim, aggressor = cell.split(":")
        ratios[(victim, aggressor)] = float(value)
    rnd = random.Random(a.seed)
    cells = []
    for v in kernels:
        cells.append(("solo", v, None))
        cells += [(a.placement, v, g) for g in kernels]
    rows = [COLUMNS]
    trial = 0
    for block in range(a.blocks):
        drift = 1 + rnd.gauss(0, 0.05)         # a whole block's drift: pairing cancels it
        order = cells[:]
        rnd.shuffle(order)
        for placement, v, g in order:
            ratio = 1.0 if g is None else ratios.get((v, g), a.default)
            u = 0.1 * drift * ratio * (1 + rnd.gauss(0, a.noise))
            rows.append(row(trial, block, placement, 0, "a", 2, v, u))
            if g is not None:
                ug = 0.1 * drift * (1 + rnd.gauss(0, a.noise))
                rows.append(row(trial, block, placement, 1, "b", 3, g, ug))
            trial += 1
    os.makedirs(a.dir, exist_ok=True)
    with open(os.path.join(a.dir, "samples.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    matrix = {
        "placement": a.placement,
        "kernels": [{"name": k, "iters": 1000000, "path": "/synthetic/" + k, "sha256": "0" * 64,
                     "calibration": None} for k in kernels],
        "cells": [{"victim": v, "aggressor": g, "placement": pl} for pl, v, g in cells],
        "allocation": None, "rope_pct": a.rope,
    }
    meta = {
        "tool": "smtbench", "version": "0.1.0",
        "command_line": ["smtbench", "matrix", "--kernels", a.kernels, "--placement", a.placement],
        "created_utc": "2026-11-30T00:00:00Z", "host": a.host,
        "os_kernel": "Linux 6.1.0-test #1 SMP (synthetic)", "cpu_model": a.cpu,
        "hwloc_version": "2.9.0", "smt_control": "on", "smt_active": "1", "governor": None,
        "virtual_machine": False, "cpu_quota": None, "hypervisor": None,
        "placements": [{"name": "solo", "pus": [2], "shares": None},
                       {"name": a.placement, "pus": [2, 3], "shares": "Core"}],
        "skipped_placements": [], "seed": a.seed,
        "settings": {"kernel": None, "beside_kernel": None, "iters": None, "beside_iters": None,
                     "command": None, "beside_command": None, "trials": a.blocks,
                     "duration_s": None, "warmup": 0, "placements": ["solo", a.placement],
                     "pair": None, "trial_timeout_s": None, "name": None, "trial_time_s": 0.1,
                     "precision_pct": None},
        "workloads": {"a": None, "b": None},
        "status": a.status, "trials_done": trial, "stop_reason": "trials",
        "matrix": matrix,
    }
    if a.cores is not None:
        meta["topology"] = {"pus": 2 * a.cores, "cores": a.cores, "packages": 1,
                            "max_threads_per_core": 2, "cpu_kinds": None}
    with open(os.path.join(a.dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)


main()
