#!/usr/bin/env bash
# live-memory.sh [FLAGS]: measures sidecar-top's live memory and CPU in an empty namespace and in
# one with 5,000 pods that never run and 20,000 Events, side by side with `kubectl get pod x -w`,
# on the e2e cluster (e2e/cluster/up.sh must have run), and prints a table. See
# e2e/perf/livemem/main.go for what it does and its flags. Without -bin it builds sidecar-top
# from this tree; with -bin NAME=PATH (repeatable) it measures those binaries instead, e.g.
#   e2e/perf/live-memory.sh -bin before=/tmp/old/sidecar-top -bin after=/tmp/new/sidecar-top
# It takes about 5 minutes (populating the big namespace is most of it); the namespaces it makes
# are deleted at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export KUBECONFIG=${KUBECONFIG:-$root/.e2e/state/admin.kubeconfig}
export PATH=$root/.e2e/bin:$PATH
mkdir -p /tmp/perf
cd "$root"
go build -o /tmp/perf/livemem ./e2e/perf/livemem
args=("$@")
if [[ " $* " != *" -bin "* ]]; then
  go build -o /tmp/perf/sidecar-top ./cmd/sidecar-top
  args=(-bin tree=/tmp/perf/sidecar-top "${args[@]}")
fi
exec /tmp/perf/livemem "${args[@]}"
