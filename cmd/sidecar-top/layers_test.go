package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayers holds the packages to the layers docs/design.md draws: the domain, the player, the
// view and the exports never link client-go (only watch and source talk to a cluster, and cmd
// wires them), the exports and the domain never link Bubble Tea.
func TestLayers(t *testing.T) {
	for _, tc := range []struct {
		pkg       string
		forbidden []string
	}{
		{"timeline", []string{"k8s.io/", "github.com/charmbracelet/"}},
		{"play", []string{"k8s.io/", "github.com/charmbracelet/", "/sidecar-top/watch"}},
		{"fleet", []string{"k8s.io/client-go", "github.com/charmbracelet/bubbletea"}},
		{"present", []string{"k8s.io/", "github.com/charmbracelet/bubbletea"}},
		{"ui", []string{"k8s.io/client-go", "k8s.io/api/", "/sidecar-top/watch", "/sidecar-top/source"}},
		{"export", []string{"k8s.io/client-go", "github.com/charmbracelet/bubbletea", "/sidecar-top/watch"}},
		{"assert", []string{"k8s.io/", "github.com/charmbracelet/"}},
		{"compare", []string{"k8s.io/", "github.com/charmbracelet/bubbletea", "/sidecar-top/watch"}},
	} {
		out, err := exec.Command("go", "list", "-deps", "github.com/sidecar-top/sidecar-top/"+tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range tc.forbidden {
				if strings.Contains(dep, f) {
					t.Errorf("%s depends on %s", tc.pkg, dep)
					break
				}
			}
		}
	}
}
