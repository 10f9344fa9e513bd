#!/usr/bin/env bash
# fleet-scale.sh [FLAGS]: the cluster-scale benchmark of the fleet view (issue 38): `sidecar-top -A` on a
# terminal beside `kubectl get pods -A -w` and k9s, on the same pods of the e2e cluster
# (e2e/cluster/up.sh must have run),
# at 5,000 and 20,000 pods (a quarter with a native sidecar, 5 Events each) bound to a Node with
# no kubelet, statuses written through pods/status. It prints one table; see
# e2e/perf/fleetscale/main.go for what is measured and the flags (e.g. -levels 1000,4000 for a
# quick look). It builds sidecar-top from this tree and k9s once (tools.sh). It takes
# 15-30 minutes on 2 cores, most of it making the pods and Events; what it made is deleted at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export KUBECONFIG=${KUBECONFIG:-$root/.e2e/state/admin.kubeconfig}
mkdir -p /tmp/perf
cd "$root"
e2e/perf/tools.sh k9s
go build -o /tmp/perf/sidecar-top ./cmd/sidecar-top
go build -o /tmp/perf/fleetscale ./e2e/perf/fleetscale
exec /tmp/perf/fleetscale -mode view -bin /tmp/perf/sidecar-top -kubectl "$root/.e2e/bin/kubectl" -k9s "$root/.e2e/bin/k9s" "$@"
