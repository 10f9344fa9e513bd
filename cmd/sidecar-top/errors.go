package main

import (
	"fmt"
	"strings"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/sidecar-top/sidecar-top/present"
)

// kubeconfigError says what is wrong with the Kubernetes configuration in one line.
func kubeconfigError(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return fmt.Errorf("no Kubernetes configuration: set --kubeconfig or $KUBECONFIG (or try `sidecar-top demo`, which needs no cluster)")
	}
	return fmt.Errorf("bad Kubernetes configuration: %w", err)
}

// oneLine joins a multi-line message into one line, made safe for a terminal (present.Safe): an
// error or warning can quote a name, a recording or the API server.
func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return present.Safe(strings.Join(lines, "; "))
}
