#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every Debian 12 package that Faultline's build, tests and benchmarks need.
# Idempotent; re-running it only checks. Used by the README's two set-up commands and by .ci/run.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
  libyaml-cpp-dev libre2-dev libsqlite3-dev libsimdjson-dev libarchive-dev libzstd-dev libssl-dev
  libhowardhinnant-date-dev tzdata zstd
  clang-format yamllint shellcheck python3 python3-jsonschema python3-yaml libxml2-utils poppler-utils
  xvfb xauth
  file ripgrep jq hyperfine time
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
