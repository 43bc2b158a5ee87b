#!/usr/bin/env python3
"""A process with busy threads pinned where a test says, for `smtbench threads` (test_threads.sh).

usage: threads_busy.py READY_FILE SECONDS CPU[,CPU...] [--short-thread EXIT_FIFO]

Starts one busy thread per CPU given, each pinned to that CPU (os.sched_setaffinity(0, ...) in
the thread itself: on Linux 0 is the calling thread) and named worker-1, worker-2, ... through
/proc/self/task/TID/comm. The busy loop hashes large buffers, for which CPython lets go of its
global lock, so that the threads really run at the same time. --short-thread adds a thread
named short-lived that waits, blocked (idle: not a busy thread), for a line on the FIFO
EXIT_FIFO, then exits: the test writes it once the sampler's window has begun (a thread of a
fixed lifetime could be gone before a loaded machine started sampling). When every thread is pinned and named, the
process writes its PID into READY_FILE; it exits after SECONDS.
"""
import hashlib
import os
import sys
import threading
import time


def name_self(name):
    with open(f"/proc/self/task/{threading.get_native_id()}/comm", "w") as f:
        f.write(name)


def busy(cpu, name, until, started):
    os.sched_setaffinity(0, {cpu})
    name_self(name)
    started.release()
    block = b"x" * (1 << 20)
    while time.monotonic() < until:
        hashlib.sha256(block).digest()


def short_lived(exit_fifo, started):
    name_self("short-lived")
    started.release()
    with open(exit_fifo) as f:
        f.readline()


def main():
    ready_file, seconds, cpus = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    short = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--short-thread" else None
    until = time.monotonic() + seconds
    started = threading.Semaphore(0)
    threads = [threading.Thread(target=busy, args=(int(c), f"worker-{i + 1}", until, started))
               for i, c in enumerate(cpus.split(","))]
    if short is not None:
        threads.append(threading.Thread(target=short_lived, args=(short, started)))
    for t in threads:
        t.start()
    for _ in threads:
        started.acquire()
    with open(ready_file + ".tmp", "w") as f:
        f.write(f"{os.getpid()}\n")
    os.rename(ready_file + ".tmp", ready_file)
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
