//go:build e2e

package e2e

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestFaultRedaction: a pod with literal environment values, a secretKeyRef, envFrom a Secret
// and a projected ServiceAccount token, applied with kubectl apply, is recorded: the recording
// holds none of the values, no managedFields and no last-applied annotation, and its header says
// which fields were removed. What the pod is (names, references, other annotations) stays.
func TestFaultRedaction(t *testing.T) {
	r := faultRun(t, "fault-redact", "redaction")
	ctx := t.Context()
	if err := r.StartRecord(ctx, "pod/redaction", "--until", "deleted", "--timeout", "3m"); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, "fault-redaction"); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitReady(ctx, "redaction", 90*time.Second); err != nil {
		t.Fatal(err)
	}
	token, err := r.Kubectl(ctx, "exec", "redaction", "-c", "app", "--", "cat", "/var/run/projected/token")
	if err != nil {
		t.Fatal(err)
	}
	fromSecret, err := r.Kubectl(ctx, "exec", "redaction", "-c", "app", "--", "sh", "-c", `echo "$FROM_SECRET"`) // busybox as built here has no printenv
	if err != nil {
		t.Fatal(err)
	}
	api, err := r.Kubectl(ctx, "get", "pod", "redaction", "-o", "json", "--show-managed-fields")
	if err != nil {
		t.Fatal(err)
	}
	// The test's input has what must not be recorded.
	secrets := []string{"literal-env-value-7f3a9c", "literal-sidecar-value-c4e2", "secret-value-from-key-42b1",
		"secret-value-from-envfrom-9d0e", strings.TrimSpace(token)}
	if strings.TrimSpace(fromSecret) != secrets[2] || len(secrets[4]) < 100 {
		t.Fatalf("the container did not get the Secret's value (%q) or the projected token (%d bytes)", fromSecret, len(secrets[4]))
	}
	for _, s := range []string{"managedFields", watch.Redacted[1][len("metadata.annotations[") : len(watch.Redacted[1])-1], secrets[0]} {
		if !strings.Contains(api, s) {
			t.Fatalf("the API's pod has no %q: the test proves nothing", s)
		}
	}
	if err := r.Delete(ctx, "redaction"); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, 0, 2*time.Minute); err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(r.Record.Path)
	if err != nil {
		t.Fatal(err)
	}
	recording := string(data)
	for _, s := range secrets {
		for _, form := range []string{s, base64.StdEncoding.EncodeToString([]byte(s))} {
			if strings.Contains(recording, form) || strings.Contains(string(r.JSON), form) {
				t.Errorf("the recording or its replay holds %.40q", form)
			}
		}
	}
	// The header names the fields removed; no item holds them.
	_, body, _ := strings.Cut(recording, "\n")
	for _, s := range []string{`"managedFields"`, `"kubectl.kubernetes.io/last-applied-configuration"`} {
		if strings.Contains(body, s) {
			t.Errorf("the recording's items hold %s", s)
		}
	}
	// What the pod is stays: names, references, other annotations, the projected volume.
	for _, s := range []string{`"name":"APP_LITERAL"`, `"name":"FROM_SECRET"`, `"secretKeyRef":{"name":"creds","key":"token"}`,
		`"envFrom":[{"secretRef":{"name":"creds"}}]`, `"audience":"sidecar-top-e2e"`, "an annotation that stays"} {
		if !strings.Contains(recording, s) {
			t.Errorf("the recording lacks %s", s)
		}
	}
	f, err := os.Open(r.Record.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, items, _, err := recfile.ReadAll(f, r.Record.Path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(watch.Redacted, h.Redacted); diff != "" {
		t.Errorf("the header's list of removed fields (-want +got):\n%s", diff)
	}
	t.Logf("%d items recorded; header: redacted %q", len(items), h.Redacted)
}
