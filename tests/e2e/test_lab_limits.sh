#!/usr/bin/env bash
# The lab's time limits (tests/lab/lab.py): a guest that runs past its limit fails with a message
# that says it was a time limit, the limit and how it was scaled, and the host's load then, not
# as if a check of smtbench had failed; a bad SMTBENCH_LAB_TIME_SCALE is refused. One guest,
# killed after about 2 s.
source "$(dirname "$0")/lib.sh"
lab=$SMTBENCH_ROOT/tests/lab/lab.py

check_status 2 "a SMTBENCH_LAB_TIME_SCALE that is not a factor" \
	env SMTBENCH_LAB_TIME_SCALE=fast python3 "$lab" --build "$SMTBENCH_BUILD" --only topo
check "... is named in one line" contains "$t_err" "SMTBENCH_LAB_TIME_SCALE=fast is not a factor"

# A stuck boot is retried only if it is noticed before the scenario's own limit ends the guest: the
# boot limit was 90 s, topo's whole limit, so a stuck topo guest was never booted again.
check "every scenario's boot limit ends before its time limit, at any scale" python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import lab, scenarios
for sc in scenarios.SCENARIOS:
    for factor in (0.02, 0.5, 1, 2, lab.TIME_SCALE_MAX, 100):
        limit = sc.timeout_s * factor
        boot = lab.boot_limit_of(limit, factor)
        assert 0 < boot <= limit / 3, (sc.name, factor, boot, limit)' "$SMTBENCH_ROOT/tests/lab"

# As in the lab itself: a machine with QEMU and busybox runs this guest, and a missing kernel is a
# failure that names the command to run, not a skip.
kernel=$(ls "$SMTBENCH_ROOT"/build/lab-kernel/boot/vmlinuz-* 2>/dev/null | tail -n 1)
if [[ ${SMTBENCH_LAB:-1} == 0 ]]; then
	skip "a guest past its time limit: the lab is turned off (SMTBENCH_LAB=0, make test LAB=0)"
elif ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	skip "a guest past its time limit: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
elif [[ ! -s $SMTBENCH_BUILD/lab/initramfs.cpio.gz ]]; then
	skip "a guest past its time limit: no initramfs (busybox missing? apt-get install busybox-static)"
elif [[ -z ${SMTBENCH_LAB_KERNEL:-$kernel} ]]; then
	not_ok "a guest past its time limit: QEMU and busybox are installed, but no guest kernel is under build/lab-kernel/: run make lab-kernel"
else
	# topo's 90 s limit × 0.02: the guest is killed after about 2 s, before it can finish.
	check_status 1 "a guest past its (scaled) time limit fails" \
		env SMTBENCH_LAB_TIME_SCALE=0.02 python3 "$lab" --build "$SMTBENCH_BUILD" --only topo
	check "... saying it was a time limit, how it was scaled and the load" python3 -c '
import sys
t = sys.argv[1]
line = [l for l in t.splitlines() if l.startswith("not ok")][0]
assert "TIME LIMIT" in line and "time limit of 2 s (90 s × 0.02: SMTBENCH_LAB_TIME_SCALE=0.02)" in line, line
assert "load average was" in line and "not a check of smtbench" in line, line' "$t_out"
	check "... after a stuck boot was noticed at a third of the limit and retried once" \
		contains "$t_out" "topo: the guest's kernel did not reach /init in 1 s; booting it once more"
fi
done_testing
