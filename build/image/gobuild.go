package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// goBuild builds ./cmd/sidecar-top of root into out for linux/arch as a static binary. The
// flags make it depend on the source and toolchain only: -trimpath drops the checkout's path,
// -buildvcs=false the VCS stamp, and CGO_ENABLED=0 the host's C toolchain and libc.
func goBuild(root, out, arch, version string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false",
		"-ldflags", "-s -w -X main.version="+version, "-o", out, "./cmd/sidecar-top")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch, "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/sidecar-top in %s: %w\n%s", root, err, strings.TrimSpace(string(b)))
	}
	return nil
}
