//go:build e2e

package e2e

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFleetKeepFinished: with --keep-finished 5s, a namespace's table drops the row of a Job's
// pod 5 s after it completed and counts it in its header while the API has it; the running
// pod's row stays; once the pod is deleted the count goes, and nothing brings its row back.
func TestFleetKeepFinished(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f, err := env.NewFleet(ctx, "keep")
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ns := f.Namespaces["keep"]
	v := startFleetView(t, "-n", ns, "--keep-finished", "5s")
	for _, m := range []string{"job-native-sidecar", "termination-order"} {
		if _, err := f.Kubectl(ctx, "keep", "apply", "-f", filepath.Join(env.Root, "e2e", "manifests", m+".yaml")); err != nil {
			t.Fatal(err)
		}
	}
	pods := func(vt viewTable) []string {
		var names []string
		for _, r := range vt.rows {
			names = append(names, r["POD"])
		}
		return names
	}
	hasJob := func(vt viewTable) bool {
		return slices.ContainsFunc(pods(vt), func(p string) bool { return strings.HasPrefix(p, "job-native-") })
	}
	// The Job's pod runs 3 s: its row comes, reads Completed, then goes and is counted.
	showing(t, v, 90*time.Second, "the Job's pod Completed", func(vt viewTable) bool {
		return slices.ContainsFunc(vt.rows, func(r map[string]string) bool {
			return strings.HasPrefix(r["POD"], "job-native-") && r["STATUS"] == "Completed"
		})
	})
	vt := showing(t, v, 30*time.Second, "the Job's pod let go of and counted", func(vt viewTable) bool {
		return !hasJob(vt) && strings.Contains(vt.counts, "1 finished, past --keep-finished") && slices.Contains(pods(vt), "termination-order")
	})
	if !strings.HasPrefix(vt.counts, "2 pods") {
		t.Errorf("the header counts %q, want the 2 pods the API has", vt.counts)
	}
	// Deleted, the Job's pod is counted no more; the running pod keeps its row.
	if _, err := f.Kubectl(ctx, "keep", "delete", "job", "job-native", "--cascade=foreground", "--wait=true"); err != nil {
		t.Fatal(err)
	}
	vt = showing(t, v, 30*time.Second, "the deleted pod no longer counted", func(vt viewTable) bool {
		return !strings.Contains(vt.counts, "finished, past") && strings.HasPrefix(vt.counts, "1 pods")
	})
	if hasJob(vt) || !slices.Contains(pods(vt), "termination-order") {
		t.Errorf("rows %v, want termination-order only", pods(vt))
	}
}

// showing waits up to limit for the view's table to show what ok wants, and returns it.
func showing(t *testing.T, v *liveView, limit time.Duration, what string, ok func(viewTable) bool) viewTable {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	var last viewTable
	for ctx.Err() == nil {
		if vt, found := tableOn(screen(v.out.String())); found {
			last = vt
			if ok(vt) {
				return vt
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("after %s the view does not show %s: counts %q, rows %v", limit, what, last.counts, last.rows)
	return last
}
