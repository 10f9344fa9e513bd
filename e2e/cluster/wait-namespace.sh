#!/usr/bin/env bash
# wait-namespace.sh NS [TIMEOUT_SECONDS]: creates namespace NS (if missing) in the e2e cluster and
# waits until pods can be created in it: its `default` ServiceAccount (made by the
# controller-manager; pod admission rejects pods until it exists) and its `kube-root-ca.crt`
# ConfigMap (mounted into every pod's service-account volume) exist. Default timeout: 60 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

ns=${1:?usage: $0 NAMESPACE [TIMEOUT_SECONDS]}
timeout=${2:-60}

kubectl_admin get namespace "$ns" >/dev/null 2>&1 || kubectl_admin create namespace "$ns" >/dev/null
wait_for "$timeout" "ServiceAccount $ns/default" - kubectl_admin -n "$ns" get serviceaccount default
wait_for "$timeout" "ConfigMap $ns/kube-root-ca.crt" - kubectl_admin -n "$ns" get configmap kube-root-ca.crt
