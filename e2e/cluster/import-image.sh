#!/usr/bin/env bash
# import-image.sh TARBALL REF: loads an OCI image archive (`make image` writes
# bin/sidecar-top-image.tar) into the running cluster's containerd, in the CRI namespace k8s.io
# where the kubelet looks, and checks that REF is there afterwards. A pod then runs it with
# imagePullPolicy IfNotPresent (or Never): nothing is pulled. Importing again replaces REF.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

[ $# = 2 ] || die "usage: $0 TARBALL REF"
tarball=$1 ref=$2
[ -s "$tarball" ] || die "$tarball: no such archive (make image writes it)"
[ "$(id -u)" = 0 ] || die "run as root"
# ctr runs inside the node's private mount namespace, where containerd's socket is; the archive
# goes in on standard input, so its path need not exist there.
ctr_ns images import - <"$tarball" >/dev/null
refs=$(ctr_ns images ls -q)
grep -qxF "$ref" <<<"$refs" || die "$ref missing after importing $tarball"
log "import-image: $ref from $tarball ($(ctr_ns images ls "name==$ref" | awk 'NR==2 {print $3}'))"
