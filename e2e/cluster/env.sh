# env.sh: shared paths of the e2e cluster scripts. Source it; override E2E_DIR to move everything.
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export E2E_DIR=${E2E_DIR:-$repo_root/.e2e}
export E2E_BIN=$E2E_DIR/bin
export E2E_STATE=$E2E_DIR/state
export E2E_PKI=$E2E_STATE/pki
export E2E_LOGS=$E2E_STATE/logs
export E2E_RUN=$E2E_STATE/run
export KUBECONFIG_ADMIN=$E2E_STATE/admin.kubeconfig
