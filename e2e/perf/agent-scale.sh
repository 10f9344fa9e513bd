#!/usr/bin/env bash
# agent-scale.sh [FLAGS]: the cluster-scale benchmark of the agent (issue 39): `sidecar-top agent -A`
# beside kube-state-metrics, on the same pods of the e2e cluster
# (e2e/cluster/up.sh must have run),
# at 5,000 and 20,000 pods (a quarter with a native sidecar, 5 Events each) bound to a Node with
# no kubelet, statuses written through pods/status. It prints one table; see
# e2e/perf/fleetscale/main.go for what is measured and the flags (e.g. -levels 1000,4000 for a
# quick look). It builds sidecar-top from this tree and kube-state-metrics once (tools.sh). It takes
# 15-30 minutes on 2 cores, most of it making the pods and Events; what it made is deleted at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export KUBECONFIG=${KUBECONFIG:-$root/.e2e/state/admin.kubeconfig}
mkdir -p /tmp/perf
cd "$root"
e2e/perf/tools.sh kube-state-metrics
go build -o /tmp/perf/sidecar-top ./cmd/sidecar-top
go build -o /tmp/perf/fleetscale ./e2e/perf/fleetscale
exec /tmp/perf/fleetscale -mode agent -bin /tmp/perf/sidecar-top -kubectl "$root/.e2e/bin/kubectl" -ksm "$root/.e2e/bin/kube-state-metrics" "$@"
