// Command pause is the sandbox ("pause") container of the e2e cluster: it waits for SIGTERM or
// SIGINT and exits 0, as registry.k8s.io/pause does, so no registry is needed.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGINT)
	<-c
}
