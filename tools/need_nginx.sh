#!/bin/sh
# tests/ops/test_nginx_errors.py checks deploy/nginx's JSON error pages with a real nginx.
# Present: nothing to do. Missing: install Debian's nginx-light with apt-get when running
# as root; otherwise say what to install (that one test is then skipped, the rest runs).
set -eu
command -v nginx >/dev/null 2>&1 && exit 0
[ -x /usr/sbin/nginx ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "make test: installing Debian's nginx-light for the nginx error-page test (apt-get)" >&2
  # optional: a failed install only skips that one test, it never stops `make test`
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq nginx-light >/dev/null; then
    [ -x /usr/sbin/nginx ] && exit 0
  fi
fi
echo "make test: no nginx, so tests/ops/test_nginx_errors.py is skipped (sudo apt-get install nginx-light)" >&2
exit 0
