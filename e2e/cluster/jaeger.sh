#!/usr/bin/env bash
# jaeger.sh: builds Jaeger all-in-one (github.com/jaegertracing/jaeger/cmd/jaeger, pinned in
# jaeger/go.mod) from the Go module proxy into $E2E_DIR/bin/jaeger, once: like the Kubernetes
# binaries of build.sh, it is kept across runs and rebuilt only when it is missing or was built
# from another version. The OTLP end-to-end test (e2e/otlp_test.go) sends traces to it.
# Cold (no Jaeger module or build cache): ~9 CPU-minutes of compiling, ~5 min on 2 idle cores
# (31 min measured on 2 cores shared with other builds), plus the module downloads; with a warm
# Go build cache ~6 s; once built, nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
mkdir -p "$E2E_BIN"

cd "$here/jaeger"
version=$(go list -m -f '{{.Version}}' github.com/jaegertracing/jaeger)
stamp=$E2E_BIN/jaeger.version
if [ -x "$E2E_BIN/jaeger" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "jaeger.sh: $E2E_BIN/jaeger $version is built" >&2
  exit 0
fi
echo "jaeger.sh: building jaeger $version into $E2E_BIN (cold: ~5 min on 2 idle cores)" >&2
start=$SECONDS
pkg=github.com/jaegertracing/jaeger/internal/version
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X $pkg.latestVersion=$version" \
  -o "$E2E_BIN/jaeger.tmp" github.com/jaegertracing/jaeger/cmd/jaeger
mv "$E2E_BIN/jaeger.tmp" "$E2E_BIN/jaeger"
echo "$version" >"$stamp"
echo "jaeger.sh: built in $((SECONDS - start))s" >&2
