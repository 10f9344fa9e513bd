#!/usr/bin/env bash
# prometheus.sh: builds the Prometheus server (github.com/prometheus/prometheus/cmd/prometheus,
# $PROMETHEUS_VERSION) from the Go module proxy into $E2E_DIR/bin/prometheus, once: like Jaeger
# (jaeger.sh) and the Kubernetes binaries (build.sh) it is kept across runs and rebuilt only when
# it is missing or was built from another version. The agent's end-to-end tests
# (e2e/agent_*_test.go) start it (e2e/harness/prometheus.go) to scrape the agent's pods and ask it
# PromQL over its HTTP API.
# Built with -tags remove_all_sd,enable_kubernetes_sd: of the service discoveries only Kubernetes'
# (and the always-present file and HTTP ones), which is how the tests find the agent's pods; the
# cloud SDKs of the others would only lengthen the build. The web UI's assets are not embedded
# (no builtinassets tag): the tests use the HTTP API only.
# Cold (an empty Go build cache): ~10 CPU-minutes, ~6 min on 2 idle cores (docs/testing.md); with a
# warm Go build cache a few seconds; once built, nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
mkdir -p "$E2E_BIN"

version=${PROMETHEUS_VERSION:-v0.316.0}
stamp=$E2E_BIN/prometheus.version
if [ -x "$E2E_BIN/prometheus" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "prometheus.sh: $E2E_BIN/prometheus $version is built" >&2
  exit 0
fi
echo "prometheus.sh: building prometheus $version into $E2E_BIN" >&2
start=$SECONDS
tmp=$(mktemp -d "$E2E_BIN/prometheus.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pkg=github.com/prometheus/common/version
# Outside any module (cd /), so `go install PKG@VERSION` resolves Prometheus' own go.mod.
(cd / && CGO_ENABLED=0 GOBIN=$tmp GOFLAGS=-modcacherw go install -trimpath \
  -tags remove_all_sd,enable_kubernetes_sd \
  -ldflags "-s -w -X $pkg.Version=$version -X $pkg.Branch=HEAD -X $pkg.BuildUser=sidecar-top-e2e" \
  "github.com/prometheus/prometheus/cmd/prometheus@$version")
mv "$tmp/prometheus" "$E2E_BIN/prometheus"
echo "$version" >"$stamp"
echo "prometheus.sh: built in $((SECONDS - start))s" >&2
