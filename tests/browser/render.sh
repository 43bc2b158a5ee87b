#!/usr/bin/env bash
# render.sh PAGE.html OUTDIR [WIDTH HEIGHT] — opens a local page in headless Chromium (Debian's
# `chromium`) the way a person's browser would, and leaves in OUTDIR:
#   screenshot.png  the page as drawn, WIDTH x HEIGHT pixels (default 1000 x 4200)
#   dom.html        the DOM after rendering (--dump-dom)
#   console.log     Chromium's own log (console messages appear as "CONSOLE" lines)
# Exits 0 when both runs finished, non-zero otherwise. No network: only a file:// URL is opened,
# with a new empty profile, and everything that would phone home switched off.
set -u
page=${1:?usage: render.sh PAGE.html OUTDIR [WIDTH HEIGHT]}
outdir=${2:?usage: render.sh PAGE.html OUTDIR [WIDTH HEIGHT]}
width=${3:-1000} height=${4:-4200}
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[[ -n $browser ]] || { echo "render.sh: chromium is not installed" >&2; exit 3; }
mkdir -p "$outdir"
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
profile=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-chromium.XXXXXX")
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$profile"
       --enable-logging=stderr --v=0 --virtual-time-budget=3000)
rc=0
timeout 90 "$browser" "${flags[@]}" --window-size="$width,$height" \
	--screenshot="$outdir/screenshot.png" "$url" >/dev/null 2>"$outdir/console.log" || rc=$?
timeout 90 "$browser" "${flags[@]}" --dump-dom "$url" >"$outdir/dom.html" \
	2>>"$outdir/console.log" || rc=$?
exit "$rc"
