#!/usr/bin/env bash
# fetch-kernel.sh DEST — the lab's guest kernel: Debian's cloud kernel image (what the
# linux-image-cloud-amd64 package points to today), downloaded with `apt-get download` and
# unpacked with `dpkg-deb -x` into DEST/boot/. Nothing is installed on this machine; only
# vmlinuz and its config are kept (the guest needs no modules: its root is an initramfs). As root
# on a machine whose package lists were never read, it runs `apt-get update` first.
set -euo pipefail
dest=${1:?usage: fetch-kernel.sh DEST}
meta=linux-image-cloud-amd64

for tool in apt-get apt-cache dpkg-deb; do
	command -v $tool >/dev/null || {
		echo "fetch-kernel.sh: $tool not found: the lab's kernel comes from Debian's packages;" \
		     "elsewhere give any x86-64 vmlinuz with SMTBENCH_LAB_KERNEL=PATH" >&2
		exit 3
	}
done
kernel_package() { apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }'; }
pkg=$(kernel_package)
if [[ -z $pkg ]] && ((EUID == 0)); then
	# A machine whose package lists were never read (a fresh container): read them, as root.
	echo "fetch-kernel.sh: apt knows no $meta yet; reading the package lists (apt-get update)" >&2
	apt-get update -qq >&2 || true
	pkg=$(kernel_package)
fi
if [[ -z $pkg ]]; then
	echo "fetch-kernel.sh: apt knows no $meta: run 'apt-get update' first (a Debian system's" \
	     "package lists are needed; Ubuntu has no cloud-amd64 kernel: use SMTBENCH_LAB_KERNEL=PATH)" >&2
	exit 3
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-kernel.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt-get download writes into the current folder; as root its sandbox user may not enter $tmp.
chmod 755 "$tmp"
(cd "$tmp" && apt-get download -q "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n 1)
[[ -n $deb ]] || { echo "fetch-kernel.sh: apt-get download $pkg failed" >&2; exit 1; }
dpkg-deb -x "$deb" "$tmp/root"
mkdir -p "$tmp/out/boot"
cp "$tmp"/root/boot/vmlinuz-* "$tmp"/root/boot/config-* "$tmp/out/boot/"
# Whole or not at all: the new folder replaces the old one in one rename.
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.old"
[[ -e $dest ]] && mv "$dest" "$dest.old"
mv "$tmp/out" "$dest"
rm -rf "$dest.old"
echo "fetch-kernel.sh: $pkg → $(ls "$dest"/boot/vmlinuz-*)"
