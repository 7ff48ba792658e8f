#!/usr/bin/env bash
# Makes sure a Chromium binary exists for the Playwright end-to-end tests.
# Playwright never downloads its own browsers here: the tests launch Debian's
# chromium package (/usr/bin/chromium) or whatever CHROMIUM_PATH points to.
set -euo pipefail

if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  if [[ -x "$CHROMIUM_PATH" ]]; then
    exit 0
  fi
  # An explicit path that does not exist is a mistake worth stopping on:
  # installing Debian's package would not make the tests find it.
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable Chromium; fix it or unset it to use /usr/bin/chromium" >&2
  exit 1
fi

if [[ -x /usr/bin/chromium ]]; then
  exit 0
fi

if [[ "$(id -u)" -ne 0 ]]; then
  echo "Install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium package with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends chromium fonts-liberation

if [[ ! -x /usr/bin/chromium ]]; then
  echo "ensure-chromium: apt-get finished but /usr/bin/chromium is missing; set CHROMIUM_PATH" >&2
  exit 1
fi
echo "ensure-chromium: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
