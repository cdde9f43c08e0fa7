#!/usr/bin/env bash
# Prints the table of docs/security.md#what-dpi-sees: runs the DPI look end-to-end suite (root,
# `ip netns`, v2ray, tcpdump, ndpiReader; on the built dist/: `npm run build` first) and prints
# the Markdown table of what nDPI made of each transport. The suite's own output goes to stderr.
#
#   sudo node-agent/scripts/dpi-look.sh > table.md
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(mktemp)
trap 'rm -f "$table"' EXIT
SCN_DPI_TABLE=$table npx jest test/e2e/dpi-look.e2e-spec.ts >&2
cat "$table"
