#!/usr/bin/env python3
"""The lab: real Linux kernels with SMT topologies in QEMU (TCG), and a known truth.

Each scenario (tests/lab/scenarios.py) boots Debian's cloud kernel with a busybox initramfs that
holds what `make` built, places the guest's vCPU threads on host CPUs (so that two guest siblings
really do, or really do not, compete for one CPU), runs a guest script (tests/lab/guest/NAME.sh)
and gets the guest's results folder back whole over the serial console. The host then runs
`smtbench report` on it, a folder made on one machine reported on another, and checks the truth
the scenario was built to have. Output: TAP lines, as every test under tests/ prints them; a
scenario this machine cannot run is one "ok N - # SKIP" line that says why and what to install.

usage: lab.py --build BUILD_DIR [--kernel VMLINUZ] [--initramfs FILE] [--only NAME,...]
              [--timed | --untimed] [--keep DIR] [--table] [--sanitized]
"""
import argparse
import base64
import binascii
import ctypes
import glob
import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenarios  # noqa: E402  (the table lives beside this file)

QEMU = "qemu-system-x86_64"
INSTALL_QEMU = "apt-get install qemu-system-x86 busybox-static"
FETCH_KERNEL = "make lab-kernel"
LAB_SWITCH = "SMTBENCH_LAB"   # SMTBENCH_LAB=0 (make test LAB=0): the lab's scenarios say SKIP
BEGIN, END, SHA = "SMTBENCH-LAB-BEGIN", "SMTBENCH-LAB-END", "SMTBENCH-LAB-SHA256"


class Tap:
    """TAP lines, numbered; failures keep their details (the console log) right under them."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, what):
        self.n += 1
        print(f"ok {self.n} - {what}", flush=True)

    def not_ok(self, what, details=""):
        self.n += 1
        self.failed += 1
        print(f"not ok {self.n} - {what}", flush=True)
        for line in details.splitlines():
            print(f"#   {line}")
        sys.stdout.flush()

    def skip(self, what, why):
        self.n += 1
        print(f"ok {self.n} - # SKIP {what}: {why}", flush=True)

    def note(self, text):
        for line in text.splitlines():
            print(f"# {line}")
        sys.stdout.flush()


class GuestFailed(Exception):
    """The guest did not bring its results back: why, and its console log."""

    def __init__(self, why, console):
        super().__init__(why)
        self.console = console


def find_kernel(explicit):
    if explicit:
        return explicit if os.path.isfile(explicit) else None
    found = sorted(glob.glob("build/lab-kernel/boot/vmlinuz-*"))
    return found[-1] if found else None


def vcpu_threads(pid, count):
    """{vCPU index: thread id} of a QEMU started with debug-threads=on ("CPU N/TCG")."""
    threads = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            with open(f"{task}/comm") as f:
                comm = f.read().strip()
        except OSError:
            continue
        if comm.startswith("CPU ") and comm.endswith("/TCG"):
            threads[int(comm[4:-4])] = int(os.path.basename(task))
    return threads if len(threads) == count else None


def pin_vcpus(proc, count, placement, host_cpus, deadline):
    """Put each vCPU thread on its host CPU (placement: vCPU -> slot in host_cpus), read back."""
    threads = None
    while threads is None:
        if proc.poll() is not None or time.monotonic() > deadline:
            raise GuestFailed("QEMU's vCPU threads never appeared (is debug-threads=on supported?)", "")
        threads = vcpu_threads(proc.pid, count)
        if threads is None:
            time.sleep(0.01)
    done = []
    for vcpu, slot in sorted(placement.items()):
        cpu = host_cpus[slot]
        os.sched_setaffinity(threads[vcpu], {cpu})
        got = os.sched_getaffinity(threads[vcpu])
        if got != {cpu}:
            raise GuestFailed(f"vCPU {vcpu}'s thread is on host CPUs {sorted(got)}, not {cpu}", "")
        done.append(f"vCPU {vcpu}→host CPU {cpu}")
    return ", ".join(done) + "; " + favour(proc.pid)


# Other work on the host CPUs dilutes the truth: with load L beside it, two vCPUs on one host CPU
# run (2 + L) / (1 + L) times slower than one instead of 2 times, and L comes and goes. The
# highest CFS weight for QEMU's threads (all of them: the main loop delivers the guest's timers)
# keeps L small while the two siblings still share their CPU finely (a real-time policy would run
# them one after the other instead, in 100 ms slices). Where the kernel groups tasks by session
# (autogroup), a thread's nice counts only inside its group, so QEMU starts in a session of its
# own and that group gets the same weight.
QEMU_NICE = -20


def favour(pid):
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            os.setpriority(os.PRIO_PROCESS, int(task), QEMU_NICE)
        if os.path.exists(f"/proc/{pid}/autogroup"):
            with open(f"/proc/{pid}/autogroup", "w") as f:
                f.write(str(QEMU_NICE))
    except PermissionError:
        return "QEMU at normal priority (raising it needs root): other load dilutes the contrast"
    except (FileNotFoundError, ProcessLookupError):
        pass
    return f"QEMU's threads and session at nice {QEMU_NICE}"


# The guest's kernel logs its boot to the console with timestamps (not `quiet`): about 25 KB, well
# under a second of the emulated serial port, so that a boot that stalls (seen once under heavy
# load, when `quiet` left nothing to read) shows where it stopped in the note of its retry.
# /init silences the kernel before the results stream begins.
def qemu_command(sc, kernel, initramfs, console_path):
    smp = f"{sc.sockets * sc.cores * sc.threads},sockets={sc.sockets},cores={sc.cores},threads={sc.threads}"
    append = f"console=ttyS0 printk.time=1 panic=-1 lab.scenario={sc.guest} {sc.append}".strip()
    return [QEMU, "-name", "lab,debug-threads=on", "-accel", "tcg,thread=multi",
            "-cpu", sc.cpu, "-smp", smp, "-m", "768M", "-nodefaults", "-no-reboot",
            "-display", "none", "-monitor", "none", "-serial", f"file:{console_path}",
            "-kernel", kernel, "-initrd", initramfs, "-append", append]


def results_from_console(console):
    """The guest's /out as a tar.gz, checked against the sha256 the guest printed before it."""
    lines = [l.rstrip("\r") for l in console.splitlines()]
    sha = next((l.split()[1] for l in lines if l.startswith(SHA + " ")), None)
    try:
        start, stop = lines.index(BEGIN), lines.index(END)
    except ValueError:
        raise GuestFailed("the guest never sent its results (no markers on the console)", console)
    try:
        data = base64.b64decode("".join(lines[start + 1:stop]), validate=True)
    except binascii.Error as e:
        raise GuestFailed(f"the results stream is damaged (not base64: {e})", console)
    if sha is None or hashlib.sha256(data).hexdigest() != sha:
        raise GuestFailed("the results stream is damaged (sha256 differs from the guest's)", console)
    return data


# A kernel that has not reached /init this long after QEMU started is stuck in its boot (seen
# once here under heavy host load, 8 vCPUs, with `quiet` on the kernel's command line): that
# guest is started once more, its console's last lines in the note.
# Nothing of smtbench has run by then, so a second boot hides no failure of it. A boot takes 3-8 s
# here; the limit is scaled with the scenario's own and kept to a third of it, so that a stuck boot
# is always caught and retried before the scenario's limit ends the guest. (It was 90 s, the same
# as the topo scenario's whole limit, so a stuck topo guest was killed as "past its time limit"
# and never booted again.)
BOOT_LIMIT_S = 30
GUEST_UP = "lab: guest up"


def boot_limit_of(limit_s, factor):
    """Seconds a guest may take to reach /init, for a scenario limit of limit_s at this factor."""
    return min(BOOT_LIMIT_S * factor, limit_s / 3)


class BootStuck(Exception):
    pass


# Under TCG a guest's speed follows the host's load: each scenario's time limit (a hard limit
# still: no guest runs forever) is its timeout_s times this factor, from the 1-minute load
# average per host CPU (at least 1, at most TIME_SCALE_MAX), or SMTBENCH_LAB_TIME_SCALE when set.
TIME_SCALE_ENV = "SMTBENCH_LAB_TIME_SCALE"
TIME_SCALE_MAX = 4.0


def host_load():
    """(1-minute load average, online CPUs) of the host."""
    return os.getloadavg()[0], os.cpu_count() or 1


def time_scale():
    """(factor, why) for the time limits; ValueError for a bad SMTBENCH_LAB_TIME_SCALE."""
    load, cpus = host_load()
    given = os.environ.get(TIME_SCALE_ENV)
    if given:
        factor = float(given)
        if not 0 < factor < 1000:
            raise ValueError(given)
        return factor, f"{TIME_SCALE_ENV}={given}"
    factor = min(TIME_SCALE_MAX, max(1.0, load / cpus))
    return factor, (f"load average {load:.1f} on {cpus} CPU(s); set {TIME_SCALE_ENV} to choose "
                    "the factor")


def limit_of(sc):
    """This scenario's time limit in seconds now, and how it was reached."""
    factor, why = time_scale()
    return sc.timeout_s * factor, f"{sc.timeout_s} s × {factor:.2g}: {why}"


def boot(sc, kernel, initramfs, host_cpus, workdir, tap):
    """Run one guest to its end (booted a second time if the first never reached /init)."""
    limit_s, _ = limit_of(sc)
    boot_limit_s = boot_limit_of(limit_s, time_scale()[0])
    try:
        return boot_once(sc, kernel, initramfs, host_cpus, workdir, boot_limit_s=boot_limit_s)
    except BootStuck:
        tap.note(f"{sc.name}: the guest's kernel did not reach /init in {boot_limit_s:.0f} s; "
                 "booting it once more. Its console:\n"
                 + read_text(os.path.join(workdir, "console.log"))[-1500:])
        return boot_once(sc, kernel, initramfs, host_cpus, workdir, boot_limit_s=None)


def wait_for(proc, console_path, deadline, boot_limit_s):
    """Wait for QEMU to exit; BootStuck if /init has not said so within boot_limit_s."""
    boot_deadline = time.monotonic() + boot_limit_s if boot_limit_s else None
    while proc.poll() is None:
        now = time.monotonic()
        if now > deadline:
            raise subprocess.TimeoutExpired(proc.args, deadline)
        if boot_deadline and now > boot_deadline:
            if GUEST_UP not in read_text(console_path):
                raise BootStuck()
            boot_deadline = None
        time.sleep(0.1)


def boot_once(sc, kernel, initramfs, host_cpus, workdir, boot_limit_s):
    """Run one guest to its end; returns (folder with its /out, console text, pinning, seconds)."""
    console_path = os.path.join(workdir, "console.log")
    cmd = qemu_command(sc, kernel, initramfs, console_path)
    started = time.monotonic()
    limit_s, limit_why = limit_of(sc)
    deadline = started + limit_s
    with open(os.path.join(workdir, "qemu.stderr"), "w") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                preexec_fn=die_with_parent, start_new_session=True)
    pinning = "not pinned"
    try:
        if sc.pin is not None:
            pinning = pin_vcpus(proc, sc.vcpus, sc.pin, host_cpus, deadline)
        wait_for(proc, console_path, deadline, boot_limit_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        load, cpus = host_load()
        raise GuestFailed(f"TIME LIMIT: the guest ran past its time limit of {limit_s:.0f} s "
                          f"({limit_why}) and was killed; the host's load average was {load:.1f} "
                          f"on {cpus} CPU(s) then. A time limit, not a check of smtbench: rerun "
                          f"on a quieter machine, or raise {TIME_SCALE_ENV}",
                          read_text(console_path))
    except GuestFailed as e:
        proc.kill()
        proc.wait()
        raise GuestFailed(str(e), read_text(console_path))
    except BaseException:   # Ctrl-C or a bug here: no guest outlives the lab
        proc.kill()
        proc.wait()
        raise
    seconds = time.monotonic() - started
    console = read_text(console_path)
    if proc.returncode != 0:
        raise GuestFailed(f"QEMU exited with status {proc.returncode}: "
                          + read_text(os.path.join(workdir, "qemu.stderr"))[-600:], console)
    out = os.path.join(workdir, "out")
    os.mkdir(out)
    try:
        with tarfile.open(fileobj=io.BytesIO(results_from_console(console)), mode="r:gz") as tar:
            if hasattr(tarfile, "data_filter"):   # Python 3.12+: refuse links and paths outside
                tar.extractall(out, filter="data")
            else:
                tar.extractall(out)
    except (tarfile.TarError, OSError) as e:
        raise GuestFailed(f"the results folder cannot be unpacked: {e}", console)
    return out, console, pinning, seconds


def die_with_parent():
    """In QEMU's process before exec: die when the lab dies, even of SIGKILL."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def without_results(console):
    """The console log for a person: the base64 stream between the markers left out."""
    lines, inside = [], False
    for line in console.splitlines():
        if line.startswith(END):
            inside = False
        if not inside:
            lines.append(line)
        if line.startswith(BEGIN):
            inside = True
            lines.append("(the results stream, left out here)")
    return "\n".join(lines)


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def report_on_host(smtbench, folder):
    """`smtbench report` here on a folder the guest made: the guest's own reports are removed
    first, so that whatever is checked was written by this machine from samples.csv and meta.json."""
    for name in ("report.json", "report.md", "report.html", "posterior.svg", "run-order.svg",
                 "samples.svg"):
        try:
            os.remove(os.path.join(folder, name))
        except FileNotFoundError:
            pass
    done = subprocess.run([smtbench, "report", folder], capture_output=True, text=True)
    if done.returncode != 0:
        raise scenarios.CheckFailed(f"smtbench report {folder}: exit {done.returncode}: {done.stderr}")
    with open(os.path.join(folder, "report.json")) as f:
        return json.load(f), done.stdout


def unavailable(sc, qemu, kernel, initramfs, host_cpus, sanitized):
    """(False, why) when this scenario cannot run here and is skipped; (True, why) when it could
    run but something it was given or needs is missing, a failure: a machine with QEMU and
    busybox runs the lab, and a missing kernel is never skipped in silence. None: it runs."""
    if os.environ.get(LAB_SWITCH) == "0":
        return False, f"the lab is turned off ({LAB_SWITCH}=0, make test LAB=0)"
    if sanitized and sc.timed:
        return False, ("measured in the plain `make test`; under SANITIZE=1 the lab checks the "
                       "sanitized program on the topology, offline, cgroup, two-socket and resume "
                       "scenarios, and leaves the two timed runs out to keep CI within its time")
    if qemu is None:
        return False, f"{QEMU} not found; install it with: {INSTALL_QEMU}"
    if initramfs is None:
        return False, f"no initramfs (busybox missing?); install with: {INSTALL_QEMU}"
    if kernel is None and os.environ.get("SMTBENCH_LAB_KERNEL"):
        return True, f"SMTBENCH_LAB_KERNEL={os.environ['SMTBENCH_LAB_KERNEL']} is not a file"
    if kernel is None:
        return True, (f"QEMU and busybox are installed, so the lab runs here, but its guest kernel "
                      f"is not under build/lab-kernel/: run {FETCH_KERNEL} (apt-get download; "
                      f"nothing is installed), or {LAB_SWITCH}=0 (make test LAB=0) to leave the lab out")
    if sc.timed and len(host_cpus) < 2:
        return False, (f"this process may use {len(host_cpus)} host CPU(s): placing guest siblings "
                       "on one host CPU or on two different ones needs at least 2")
    return None


def run_scenario(sc, args, tap, smtbench, kernel, host_cpus, keep_root, table):
    workdir = tempfile.mkdtemp(prefix=f"smtbench-lab-{sc.name}.", dir=keep_root)
    try:
        out, console, pinning, seconds = boot(sc, kernel, args.initramfs, host_cpus, workdir, tap)
    except GuestFailed as e:
        tap.not_ok(f"{sc.name}: {sc.title}: {e}", "guest console log:\n" + without_results(e.console)[-6000:])
        return
    tap.note(f"{sc.name}: guest ran {seconds:.1f} s; {pinning}")
    status = read_text(os.path.join(out, "guest.status")).strip()
    ctx = scenarios.Context(out, smtbench, lambda folder: report_on_host(smtbench, folder))
    failures_before = tap.failed
    if status != "0":
        tap.not_ok(f"{sc.name}: the guest script exited with status {status or '?'}",
                   "guest script log:\n" + read_text(os.path.join(out, "guest.log"))[-4000:])
    else:
        try:
            for ok, what in sc.check(ctx):
                (tap.ok if ok else tap.not_ok)(f"{sc.name}: {what}")
        except scenarios.CheckFailed as e:
            tap.not_ok(f"{sc.name}: {e}")
        except Exception as e:  # a check that crashes is a failure with its reason, not a crash
            tap.not_ok(f"{sc.name}: checking raised {type(e).__name__}: {e}")
    if ctx.note:
        tap.note(f"{sc.name}: {ctx.note}")
    if ctx.row:
        table.append((sc.name, sc.truth, *ctx.row))
    if tap.failed > failures_before:
        tap.note("guest script log (last lines):\n" + read_text(os.path.join(out, "guest.log"))[-3000:])
        tap.note("guest console log (last lines):\n" + without_results(console)[-3000:])
        tap.note(f"the guest's files are in {workdir}")
    elif keep_root is None:
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", required=True, help="the build folder: smtbench and kernels/")
    p.add_argument("--kernel", default=os.environ.get("SMTBENCH_LAB_KERNEL"),
                   help="the guest's vmlinuz (default: $SMTBENCH_LAB_KERNEL, else "
                        "build/lab-kernel/boot/vmlinuz-*)")
    p.add_argument("--initramfs", help="default: BUILD/lab/initramfs.cpio.gz")
    p.add_argument("--only", help="comma-separated scenario names")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--timed", action="store_true",
                       help="only the timed scenarios (vCPUs pinned, a contrast measured)")
    which.add_argument("--untimed", action="store_true",
                       help="only the others (what the guest's kernel and smtbench say)")
    p.add_argument("--keep", help="keep every guest's files under this folder")
    p.add_argument("--table", action="store_true", help="print the table of results (docs/lab.md)")
    p.add_argument("--sanitized", action="store_true",
                   default=os.environ.get("SMTBENCH_SANITIZE") == "1",
                   help="the build is ASan+UBSan's (default: from SMTBENCH_SANITIZE=1)")
    args = p.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.chdir(root)
    smtbench = os.path.abspath(os.path.join(args.build, "smtbench"))
    args.initramfs = args.initramfs or os.path.join(args.build, "lab", "initramfs.cpio.gz")
    if not os.path.isfile(args.initramfs):
        args.initramfs = None
    kernel = find_kernel(args.kernel)
    qemu = shutil.which(QEMU)
    host_cpus = sorted(os.sched_getaffinity(0))
    chosen = scenarios.SCENARIOS
    if args.only:
        names = args.only.split(",")
        unknown = [n for n in names if n not in {s.name for s in chosen}]
        if unknown:
            print(f"lab.py: no scenario named {', '.join(unknown)}; there are: "
                  + ", ".join(s.name for s in chosen), file=sys.stderr)
            return 2
        chosen = [s for s in chosen if s.name in names]
    if args.timed or args.untimed:
        chosen = [s for s in chosen if s.timed == args.timed]
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)

    try:
        time_scale()
    except ValueError:
        print(f"lab.py: {TIME_SCALE_ENV}={os.environ[TIME_SCALE_ENV]} is not a factor; give a "
              "number above 0, e.g. 2", file=sys.stderr)
        return 2
    tap, table = Tap(), []
    started = time.monotonic()
    tap.note(f"lab: kernel {kernel}, host CPUs {host_cpus[:2]} of {host_cpus}, build {args.build}")
    tap.note(f"lab: time limits × {time_scale()[0]:.2g} at the start ({time_scale()[1]})")
    for sc in chosen:
        cannot = unavailable(sc, qemu, kernel, args.initramfs, host_cpus, args.sanitized)
        if cannot:
            fatal, why = cannot
            if fatal:
                tap.not_ok(f"{sc.name}: {sc.title}: {why}")
            else:
                tap.skip(f"{sc.name}: {sc.title}", why)
            continue
        run_scenario(sc, args, tap, smtbench, kernel, host_cpus, args.keep, table)
    tap.note(f"lab: {len(chosen)} scenario(s) in {time.monotonic() - started:.0f} s")
    if args.table and table:
        print("| # | scenario | truth built in | what smtbench said | ratio | 95% interval |")
        print("|---|---|---|---|---|---|")
        for row in table:
            number = [s.name for s in scenarios.SCENARIOS].index(row[0]) + 1
            print(f"| {number} | " + " | ".join(str(x) for x in row) + " |")
    print(f"1..{tap.n}", flush=True)  # the plan: tests/run.sh counts a run without it as cut short
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
