#!/bin/sh
# The system programs the test suite drives: Debian's Chromium for the
# browser view (server-rendered pages, checked with XSLT switched off), and oai_pmh
# (libhttp-oai-perl) for the real-client harvest, Info-ZIP's unzip, which reads
# back the Resource Dump packages, and nginx, the reverse proxy of deploy/ that the
# suite harvests through (started by the test itself, never as a service), and Debian's python3-xmlschema
# with python3-lxml, which validate RIOXX records against their XSD 1.1 schema (schemas/rioxx-3/validate.py:
# libxml2 cannot compile XSD 1.1). `npm test` runs this first.
# Quiet when everything is present; installs what is missing when run as
# root; otherwise prints the command to run and exits 1.
set -eu

PACKAGES="chromium libhttp-oai-perl unzip nginx python3-xmlschema python3-lxml libxml2-utils"
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v oai_pmh >/dev/null 2>&1 || missing="$missing libhttp-oai-perl"
command -v unzip >/dev/null 2>&1 || missing="$missing unzip"
[ -x /usr/sbin/nginx ] || missing="$missing nginx"
/usr/bin/python3 -c 'import xmlschema' >/dev/null 2>&1 || missing="$missing python3-xmlschema"
/usr/bin/python3 -c 'import lxml' >/dev/null 2>&1 || missing="$missing python3-lxml"
[ -x /usr/bin/xmllint ] || missing="$missing libxml2-utils"
[ -z "$missing" ] && exit 0

echo "system-deps: missing Debian packages:$missing" >&2
if [ "$(id -u)" != 0 ]; then
  echo "system-deps: as root, run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends $PACKAGES" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Update the package lists only when they are absent or cannot find a package.
for p in $PACKAGES; do
  if ! apt-cache show "$p" >/dev/null 2>&1; then
    apt-get update -qq
    break
  fi
done
# shellcheck disable=SC2086 # the list is meant to split into words
apt-get install -y -qq --no-install-recommends $PACKAGES >&2
[ -x /usr/bin/chromium ] && command -v oai_pmh >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1 && [ -x /usr/sbin/nginx ] && [ -x /usr/bin/xmllint ] &&
  /usr/bin/python3 -c 'import xmlschema, lxml' >/dev/null 2>&1 || {
  echo "system-deps: still missing after apt-get install" >&2
  exit 1
}
