#!/usr/bin/env bash
# Loads an augur timeline page in headless Chromium with no network and prints what the page
# reported about itself (rows drawn, painted fraction) and the size of a screenshot of it.
# Usage: timeline_check.sh PAGE.html SCREENSHOT.png
set -euo pipefail
page=$(realpath "$1")
shot=$2
browser=$(command -v chromium || command -v chromium-browser)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$profile" --window-size=1200,600
       --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>')
# An unreachable proxy makes any network request fail, so the page must be self-contained.
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" 2>/dev/null | grep -o '<body[^>]*>'
timeout 120 "$browser" "${flags[@]}" --screenshot="$shot" "file://$page" >/dev/null 2>&1
echo "screenshot-bytes=$(stat -c %s "$shot")"
