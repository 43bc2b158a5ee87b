#!/usr/bin/env bash
# End to end: an hwloc XML topology newer than the hwloc this smtbench is built with (hwloc 3
# writes format 3.0 by default) is named for what it is, with the export that this build reads
# (issue 19), not called invalid; exit status 2 and nothing written. The v3 files are made from
# this machine's own v2 export by changing its version attribute, as a v3 lstopo would write it.
source "$(dirname "$0")/lib.sh"

run=$t_tmp/run
"$SMTBENCH" run --placements solo --trials 1 --warmup 0 --iters 1000 --out "$run" >/dev/null 2>&1
xml=$run/topology.xml
hwloc=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["hwloc_version"])' "$run/meta.json")
[[ -z $hwloc || $hwloc == 2.* ]] || skip_all "this smtbench uses hwloc $hwloc, which reads format 3 files"
check "a short run exported this machine's topology (hwloc XML format 2.0)" \
	grep -q '<topology version="2.0">' "$xml"

check_status 0 "topo --topology on the v2 export loads it" "$SMTBENCH" topo --topology "$xml"

work=$t_tmp/work
mkdir -p "$work"
v3=$work/v3.xml
sed 's/<topology version="2.0">/<topology version="3.0">/' "$xml" >"$v3"
python3 - "$v3" "$work/v3-300.xml" <<'PY'
import re, sys
xml = open(sys.argv[1]).read()
tag = '<info name="hwlocVersion" value="3.0.0"/>'
if 'name="hwlocVersion"' in xml:
    xml = re.sub(r'<info name="hwlocVersion" value="[^"]*"/>', tag, xml)
else:
    xml = re.sub(r'(<object type="Machine"[^>]*>)', r'\1' + tag, xml, count=1)
open(sys.argv[2], "w").write(xml)
PY
ls -la "$work" >"$t_tmp/before"
newer="was written by hwloc 3.0.0 (XML format 3.0); this smtbench uses hwloc $hwloc, which reads format 2 and older: on the machine that wrote it, export it with: lstopo-no-graphics --of xml --export-xml-flags v2 FILE.xml"
check_status 2 "a v3 file written by hwloc 3.0.0 is refused" \
	bash -c 'cd "$1" && exec "$2" topo --topology v3-300.xml' _ "$work" "$SMTBENCH"
check "... in one line saying it is newer, and how to export one this build reads" \
	test "$t_err" == "smtbench: 'v3-300.xml' $newer"
check "... not called invalid" bash -c '[[ $1 != *"not a valid"* ]]' _ "$t_err"
check "... nothing on stdout" test -z "$t_out"
check_status 2 "the same with --json" "$SMTBENCH" topo --json --topology "$work/v3-300.xml"
check "... the same line, nothing on stdout" \
	bash -c '[[ $1 == "smtbench: '"'"'$3'"'"' $4" && -z $2 ]]' _ "$t_err" "$t_out" "$work/v3-300.xml" "$newer"
check_status 2 "a v3 file that does not say which hwloc wrote it (or says an older one)" \
	"$SMTBENCH" topo --topology "$v3"
check "... says hwloc 3 or newer" \
	contains "$t_err" "'$v3' was written by hwloc 3 or newer (XML format 3.0); this smtbench uses hwloc $hwloc"
check "... and names the export flag" contains "$t_err" "--export-xml-flags v2"
check "nothing was written beside the files" bash -c 'ls -la "$1" | cmp -s - "$2"' _ "$work" "$t_tmp/before"

printf '<?xml version="1.0"?>\n<topology version="2.0">\n  <object type="Machine">\n' >"$work/cut.xml"
check_status 2 "a v2 file that is cut short is still called invalid" "$SMTBENCH" topo --topology "$work/cut.xml"
check "... as before" contains "$t_err" "is not a valid hwloc XML topology file"

done_testing
