#!/usr/bin/env bash
# ensure-kernel.sh DEST [FILTER] — what `make test` does before its tests, for the lab: on a
# machine that can run it (QEMU and busybox installed), the lab runs, so its guest kernel is
# fetched into DEST if it is missing (fetch-kernel.sh, what `make lab-kernel` runs: apt-get
# download, nothing installed), and if that fails, make test stops here with the one command to
# run. Nothing to do when the lab is turned off (SMTBENCH_LAB=0, make test LAB=0), when
# SMTBENCH_LAB_KERNEL names the kernel, or when FILTER (make test T=...) selects no lab test.
set -uo pipefail
dest=${1:?usage: ensure-kernel.sh DEST [FILTER]}
filter=${2:-}
here=$(cd "$(dirname "$0")" && pwd)

[[ ${SMTBENCH_LAB:-1} == 0 || -n ${SMTBENCH_LAB_KERNEL:-} ]] && exit 0
if [[ -n $filter ]]; then
	wanted=""
	for name in test_lab test_lab_timed test_lab_limits; do
		[[ $name == *"$filter"* || e2e/$name == *"$filter"* ]] && wanted=yes
	done
	[[ -n $wanted ]] || exit 0
fi
command -v qemu-system-x86_64 >/dev/null 2>&1 && command -v busybox >/dev/null 2>&1 || exit 0
ls "$dest"/boot/vmlinuz-* >/dev/null 2>&1 && exit 0

echo "make test: QEMU and busybox are installed, so the lab runs; fetching its guest kernel" \
     "into $dest/ (make lab-kernel: apt-get download, nothing is installed)"
if ! "$here/fetch-kernel.sh" "$dest"; then
	echo "make test: the lab's guest kernel could not be fetched (above); run:" >&2
	echo "    make lab-kernel" >&2
	echo "  (where it can reach a Debian mirror; or boot a kernel of your own with" \
	     "SMTBENCH_LAB_KERNEL=/path/to/vmlinuz, or leave the lab out with make test LAB=0)" >&2
	exit 1
fi
