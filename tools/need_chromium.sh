#!/bin/sh
# The browser tests drive Debian's chromium (never a browser downloaded by Playwright).
# Present: nothing to do. Missing: install it with apt-get when running as root,
# otherwise say exactly what to install, and fail.
set -eu
browser="${DAILY_CHROMIUM:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "make test: installing Debian's chromium for the browser tests (apt-get)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$browser" ] && exit 0
fi
cat >&2 <<MSG
make test: the browser tests need Chromium at $browser, which is missing.
  On Debian or Ubuntu:  sudo apt-get install chromium
  Elsewhere: install Chromium and run  DAILY_CHROMIUM=/path/to/chromium make test
MSG
exit 1
