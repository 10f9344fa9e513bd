#!/usr/bin/env bash
# tools.sh: builds the programs the scale benchmarks measure sidecar-top against, from the Go
# module proxy, into $E2E_DIR/bin, once each (kept across runs like the cluster's binaries and
# rebuilt only when missing or built from another version):
#   k9s                 github.com/derailed/k9s $K9S_VERSION (fleet-scale.sh: the view's peer)
#   kube-state-metrics  k8s.io/kube-state-metrics/v2 $KSM_VERSION (agent-scale.sh: the agent's)
# They are only benchmark anchors: make test never builds them.
set -euo pipefail
here=$(cd "$(dirname "$0")/../cluster" && pwd)
. "$here/env.sh"
mkdir -p "$E2E_BIN"

# build NAME MODULE_PACKAGE VERSION [LDFLAGS]: go install PKG@VERSION outside any module, so the
# tool's own go.mod decides its dependencies.
build() {
  local name=$1 pkg=$2 version=$3 ldflags=${4:-}
  local stamp=$E2E_BIN/$name.version
  if [ -x "$E2E_BIN/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
    echo "tools.sh: $E2E_BIN/$name $version is built" >&2
    return
  fi
  echo "tools.sh: building $name $version into $E2E_BIN" >&2
  local start=$SECONDS tmp
  tmp=$(mktemp -d "$E2E_BIN/$name.build.XXXXXX")
  (cd / && CGO_ENABLED=0 GOBIN=$tmp GOFLAGS=-modcacherw go install -trimpath -ldflags "-s -w $ldflags" "$pkg@$version")
  mv "$tmp/$(basename "${pkg%/v[0-9]*}")" "$E2E_BIN/$name" 2>/dev/null || mv "$tmp"/* "$E2E_BIN/$name"
  rm -rf "$tmp"
  echo "$version" >"$stamp"
  echo "tools.sh: $name built in $((SECONDS - start))s" >&2
}

k9s=${K9S_VERSION:-v0.50.16}
ksm=${KSM_VERSION:-v2.20.0}
case "${1:-all}" in
  k9s|all) build k9s github.com/derailed/k9s "$k9s" "-X github.com/derailed/k9s/cmd.version=$k9s" ;;&
  kube-state-metrics|all) build kube-state-metrics k8s.io/kube-state-metrics/v2 "$ksm" \
    "-X github.com/prometheus/common/version.Version=$ksm" ;;
  k9s|kube-state-metrics|all) ;;
  *) echo "usage: tools.sh [k9s|kube-state-metrics|all]" >&2; exit 2 ;;
esac
