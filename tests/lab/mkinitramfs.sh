#!/usr/bin/env bash
# mkinitramfs.sh BUILD_DIR OUT.cpio.gz — the lab guest's whole root filesystem: a static
# busybox, the guest /init, the scenarios' guest scripts, and BUILD_DIR/smtbench with its
# kernels and every shared library `ldd` lists for it (whatever the build links today: hwloc,
# jansson, the sanitizers' runtimes...), so that the guest runs exactly what `make` built.
set -euo pipefail
build=${1:?usage: mkinitramfs.sh BUILD_DIR OUT.cpio.gz}
out=${2:?usage: mkinitramfs.sh BUILD_DIR OUT.cpio.gz}
here=$(cd "$(dirname "$0")" && pwd)

busybox=$(command -v busybox || true)
if [[ -z $busybox ]]; then
	echo "mkinitramfs.sh: busybox not found; on Debian or Ubuntu run: apt-get install busybox-static" >&2
	exit 3
fi
for f in "$build/smtbench" "$build"/kernels/nop; do
	[[ -x $f ]] || { echo "mkinitramfs.sh: $f missing: run make first" >&2; exit 2; }
done

root=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,out,lab/kernels,lab/guest}

# copy_with_libs FILE DEST: FILE and the shared libraries it needs, at their own paths.
copy_with_libs() {
	install -m 755 "$1" "$2"
	# ldd prints "lib => /path (addr)" or "/path (addr)"; a static program prints no path.
	{ ldd "$1" 2>/dev/null || true; } | { grep -o '/[^ ]*' || true; } | while read -r lib; do
		[[ -e $root$lib ]] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_with_libs "$busybox" "$root/bin/busybox"
copy_with_libs "$build/smtbench" "$root/lab/smtbench"
for k in "$build"/kernels/*; do
	[[ -f $k && -x $k ]] && install -m 755 "$k" "$root/lab/kernels/"
done
install -m 755 "$here/init" "$root/init"
install -m 644 "$here"/guest/*.sh "$root/lab/guest/"

tmp_out="$out.tmp.$$"
(cd "$root" && find . | LC_ALL=C sort | "$busybox" cpio -o -H newc 2>/dev/null) | gzip -1 >"$tmp_out"
mv -f "$tmp_out" "$out"
