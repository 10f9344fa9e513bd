//go:build e2e

package e2e

import (
	"regexp"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestSidecarHoldsReadiness: a native sidecar whose readiness probe fails for ~6 s keeps the Pod
// not Ready although the app is ready; the Pod becomes Ready when the sidecar does.
func TestSidecarHoldsReadiness(t *testing.T) {
	t.Parallel()
	r, p := runScenario(t, harness.Readiness)

	appReady := milestone(t, p, "app", timeline.MReady, 0)
	sideReady := milestone(t, p, "sidecar", timeline.MReady, 0)
	podReady := milestone(t, p, "", timeline.MReady, 0)
	if d := podReady.Earliest.Sub(appReady.Latest); d <= 2*time.Second {
		t.Errorf("want the app ready more than 2 s before the pod (by the bounds), got %v: %s", d, describe(appReady, podReady))
	}
	// The Pod's Ready follows the sidecar's: the two are within a second of each other.
	if podReady.Latest.Before(sideReady.Earliest.Add(-time.Second)) || podReady.Earliest.After(sideReady.Latest.Add(time.Second)) {
		t.Errorf("want the pod ready within 1 s of the sidecar's bounds: %s", describe(sideReady, podReady))
	}
	held := regexp.MustCompile("(?i)sidecar.*read(y|iness)|read(y|iness).*sidecar")
	if f := finding(p.Findings(), "sidecar", held); f == nil {
		t.Errorf("no finding says sidecar `sidecar` held the Pod's readiness; findings:\n%s", findingTexts(p.Findings()))
	} else {
		t.Logf("finding: %s", f.Text)
	}
	checkTruth(t, r, harness.Readiness)
}
