#!/usr/bin/env bash
# installed.sh DEB — the package as a user installs it: `dpkg -i DEB`, then debian/tests/smoke
# (the autopkgtest: the installed smtbench's topo, run --blocks 2 with the kernels it finds in
# /usr/libexec/smtbench, man smtbench, the completions).
#
# Where: a throwaway copy of this machine's /usr, /etc and /var (overlay mounts in a mount
# namespace of this script's own), so that nothing of the install outlives it, and the tests of
# the source tree, beside it or after it, never meet an installed smtbench in PATH or a man page
# in /usr/share/man. Not `dpkg -x` into a prefix: where smtbench looks for its kernels is compiled
# in (/usr/libexec/smtbench), so an unpacked copy elsewhere would need SMTBENCH_KERNEL_DIR, which
# would test the override instead of the package. Where no namespace can be made (not root, no
# overlayfs, a container that forbids it), it says so, installs for real and purges the package
# at the end.
set -euo pipefail
deb=$(realpath "${1:?usage: installed.sh DEB}")
root=$(cd "$(dirname "$0")/../.." && pwd)
smoke=$root/debian/tests/smoke
((EUID == 0)) || { echo "installed.sh: installing a package needs root" >&2; exit 2; }

install_deb() { # dpkg -i, then apt for any runtime library not installed yet
	dpkg -i "$1" || apt-get install -y -q -f --no-install-recommends
}

if unshare --mount --propagation private true 2>/dev/null && grep -qw overlay /proc/filesystems; then
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-installed.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	echo "installed.sh: installing $(basename "$deb") into a throwaway overlay of /usr, /etc and /var"
	unshare --mount --propagation private bash -c '
		set -e
		for d in usr etc var; do
			mkdir -p "$1/$d.up" "$1/$d.work"
			mount -t overlay overlay -o "lowerdir=/$d,upperdir=$1/$d.up,workdir=$1/$d.work" "/$d"
		done
		'"$(declare -f install_deb)"'
		install_deb "$2"
		exec "$3"' _ "$scratch" "$deb" "$smoke"
else
	echo "installed.sh: no private mount namespace here (unshare or overlayfs refused):" \
	     "installing $(basename "$deb") on this machine, and purging it at the end"
	trap 'dpkg --purge smtbench >/dev/null || true' EXIT
	install_deb "$deb"
	"$smoke"
fi
