#!/usr/bin/env bash
# test_package.sh — the release's facts agree and the source tarball builds:
#  - the version is written once (the Makefile's VERSION): `make version`, `smtbench -V`,
#    debian/changelog's top entry and a run's meta.json say the same, and debian/rules refuses to
#    build a package whose changelog says another;
#  - debian/control's Build-Depends are the Makefile's list of build dependencies (the packages
#    its "missing build dependencies" line names), with the same lowest versions;
#  - `make dist` makes the same bytes twice from the same tree, holds the files git tracks under
#    smtbench-VERSION/ (debian/ included, build/ not), and builds elsewhere: unpacked in a
#    temporary folder, `make` there gives an smtbench of this version and every kernel.
# The .deb itself is built, checked by lintian and installed by CI (.ci/run: make deb,
# tests/package/installed.sh): a package build takes minutes and root.
source "$(dirname "$0")/lib.sh"
cd "$SMTBENCH_ROOT" || exit 1

version=$(make -s --no-print-directory version)
check "make version prints the Makefile's VERSION ($version)" \
	eval '[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ && $(sed -n "s/^VERSION *:= *//p" Makefile) == "$version" ]]'
check_status 0 "smtbench -V" "$SMTBENCH" -V
check "... says smtbench $version" test "$t_out" = "smtbench $version"
changelog=$(sed -n '1s/^smtbench (\([^)]*\)).*/\1/p' debian/changelog)
check "debian/changelog's top entry is $version (got '$changelog')" test "$changelog" = "$version"
check_status 0 "a run of one trial" "$SMTBENCH" run --placements solo --blocks 1 --warmup-blocks 0 \
	--iters 1000 --progress none --out "$t_tmp/run"
check "... whose meta.json says tool smtbench, version $version" python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert (m["tool"], m["version"]) == ("smtbench", sys.argv[2]), (m["tool"], m["version"])' \
	"$t_tmp/run" "$version"

if [[ -f /usr/share/dpkg/pkg-info.mk ]]; then
	# debian/rules' own check, on a copy whose changelog says another version.
	mkdir -p "$t_tmp/mismatch"
	cp -r Makefile debian "$t_tmp/mismatch/"
	sed -i "1s/(\([^)]*\))/(9.9.9)/" "$t_tmp/mismatch/debian/changelog"
	check_status 2 "debian/rules refuses a changelog that says 9.9.9 to a Makefile that says $version" \
		make -s -C "$t_tmp/mismatch" -f debian/rules override_dh_auto_configure
	check "... saying both and what to do" \
		contains "$t_err" "the Makefile's VERSION is $version but debian/changelog says 9.9.9: add an entry for $version (dch -v $version)"
else
	skip "debian/rules' version check: needs dpkg-dev (apt-get install dpkg-dev)"
fi

# The Makefile's list: $(call lib_missing,MODULE >= VERSION,PACKAGE,HEADER) for each library,
# and the tools named by themselves (nasm, pkg-config).
wanted=$(python3 - Makefile <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
deps = {p: v for _, v, p in re.findall(r"lib_missing,(\S+) >= ([0-9.]+),([a-z0-9.+-]+),", text)}
block = text[text.index("MISSING := $(strip"):]
block = block[:block.index("ifneq ($(MISSING),)")]
for tool in ("nasm", "pkg-config"):
    assert re.search(r",,%s\)" % re.escape(tool), block), tool
    deps[tool] = None
print(" ".join(f"{p}({v})" if v else p for p, v in sorted(deps.items())))
EOF
)
have=$(python3 - debian/control <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
field = re.search(r"^Build-Depends:(.*?)^\S", text, re.S | re.M).group(1)
deps = {}
for item in field.split(","):
    m = re.match(r"\s*([a-z0-9.+-]+)\s*(?:\(>=\s*([0-9.]+)\))?", item)
    if m and m.group(1) != "debhelper-compat":
        deps[m.group(1)] = m.group(2)
print(" ".join(f"{p}({v})" if v else p for p, v in sorted(deps.items())))
EOF
)
check "debian/control's Build-Depends are the Makefile's dependencies ($wanted; control: $have)" \
	test -n "$wanted" -a "$wanted" = "$have"

# --- make dist ---------------------------------------------------------------------------------
if ! git -C "$SMTBENCH_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	skip "make dist: this source tree is not a git checkout (it packs the files git tracks)"
	done_testing
	exit
fi
check_status 0 "make dist DISTDIR=a temporary folder" make -s --no-print-directory dist DISTDIR="$t_tmp/d1"
tarball=$t_tmp/d1/smtbench-$version.tar.gz
check "... writes smtbench-$version.tar.gz and names it" \
	eval '[[ -s $tarball ]] && contains "$t_out" "$tarball"'
make -s --no-print-directory dist DISTDIR="$t_tmp/d2" >/dev/null 2>&1
check "... the same bytes a second time" cmp -s "$tarball" "$t_tmp/d2/smtbench-$version.tar.gz"
listed=$(tar -tzf "$tarball")
tracked=$(git ls-files | while IFS= read -r f; do [[ -e $f ]] && echo "smtbench-$version/$f"; done | sort)
check "... holds exactly the files git tracks, under smtbench-$version/ ($(wc -l <<<"$listed") files)" \
	test "$(sort <<<"$listed")" = "$tracked"
check "... debian/ among them, build/ not" \
	eval 'grep -qx "smtbench-$version/debian/control" <<<"$listed" && ! grep -q "^smtbench-$version/build/" <<<"$listed"'
mkdir -p "$t_tmp/elsewhere"
tar -xzf "$tarball" -C "$t_tmp/elsewhere"
src=$t_tmp/elsewhere/smtbench-$version
# A plain build, as a user's: not the flags of the make test that runs this (make test SANITIZE=1
# passes SANITIZE=1 down in MAKEFLAGS and the environment, which would put the program under
# build/sanitize/).
check_status 0 "unpacked elsewhere, make builds it" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u BUILD -u CFLAGS make -s -C "$src" -j2
check "... an smtbench of version $version" test "$("$src/build/smtbench" -V)" = "smtbench $version"
kernels=$(ls "$SMTBENCH_BUILD/kernels" | grep -v '\.[od]$' | sort | tr '\n' ' ')
check "... and every kernel ($kernels)" \
	test "$(ls "$src/build/kernels" | grep -v '\.[od]$' | sort | tr '\n' ' ')" = "$kernels"
done_testing
