#!/usr/bin/env bash
# install-deps.sh: installs the Debian packages the e2e cluster needs, without letting dpkg start
# containerd (up.sh starts it in its own mount namespace). Idempotent.
set -euo pipefail
pkgs=(containerd runc containernetworking-plugins busybox-static openssl iptables iproute2 util-linux)
missing=()
for p in "${pkgs[@]}"; do
  state=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$state" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
policy=/usr/sbin/policy-rc.d
made_policy=
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; made_policy=1
fi
trap '[ -n "$made_policy" ] && rm -f "$policy"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || apt-get update
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
