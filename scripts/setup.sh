#!/usr/bin/env bash
# Installs every Debian package simtsync needs that is missing. Idempotent and non-interactive;
# used by both README commands and by .ci/run. Arguments name extra packages to install.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config libyaml-cpp-dev libcli11-dev libfmt-dev
      nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev python3 python3-yaml
      python3-matplotlib python3-numpy libzstd-dev zlib1g-dev libjs-d3 chromium)
# libjs-d3: d3 for the timeline page (`simtsync view`, inlined at build time); chromium: the
# test that opens that page headless (e2e.trace_view_browser).
# Extra packages a caller needs (scripts/sanitize.sh: clang and its sanitizer/libFuzzer runtimes).
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
