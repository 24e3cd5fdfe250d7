#!/usr/bin/env bash
# Prints the Debian archive this machine's apt reads (a deb line or a deb822 URIs field whose
# suites are not a security suite), else Debian's own redirector.
set -euo pipefail
mirror=$({ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
    awk '$1 == "deb" && $0 !~ /security/ && $0 ~ /debian/ {
             sub(/\[[^]]*\]/, ""); $0 = $0; print $2; exit }')
if [ -z "$mirror" ]; then
    mirror=$({ cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
        awk 'BEGIN { RS = ""; FS = "\n" }
             /(^|\n)Types:[^\n]*deb([ \n]|$)/ && !/Suites:[^\n]*security/ {
                 for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/ && $i ~ /debian/) {
                     split($i, w, /[ \t]+/); print w[2]; exit } }')
fi
echo "${mirror:-http://deb.debian.org/debian}"
