#!/usr/bin/env bash
# regen.sh [SMTBENCH] — rewrites tests/golden/reports/ from what this build prints and writes
# (tests/golden/reports.sh). Run it in the commit that changes an output on purpose, and read
# `git diff tests/golden/` before committing: every line that moved is a change users see.
# The same as `SMTBENCH_UPDATE_GOLDEN=1 make test T=test_golden`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
export SMTBENCH=${1:-${SMTBENCH:-$here/../../build/smtbench}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bash "$here/reports.sh" "$tmp/reports"
rm -rf "$here/reports"
cp -r "$tmp/reports" "$here/reports"
echo "tests/golden/reports: $(find "$here/reports" -type f | wc -l) files written; review them with git diff"
