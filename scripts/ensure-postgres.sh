#!/usr/bin/env bash
# Makes sure PostgreSQL server binaries (initdb, pg_ctl) are present for the
# real-server test pass. Installs Debian's postgresql package when running as
# root; otherwise says in one line what to install. Prints the bin folder.
set -euo pipefail

find_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

bin=$(find_bin || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL server binaries not found: install Debian's postgresql package (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "Installing Debian's postgresql package..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
  bin=$(find_bin)
fi
echo "$bin"
