package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	authv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8sversion "k8s.io/apimachinery/pkg/version"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/watch"
)

// old128 is the note for a v1.28.4 server.
const old128 = "the API server is v1.28.4, older than 1.29: it has no native sidecars (SidecarContainers is " +
	"alpha and off in 1.28, absent before), so an init container's restartPolicy: Always is rejected or " +
	"dropped, and the container runs as a plain init container that must exit before the next one starts"

// TestOldServerNote: servers older than 1.29 get the note, naming the version as parsed; newer
// ones, and versions that cannot be read, get none.
func TestOldServerNote(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    string
	}{
		{"v1.28.4", old128},
		{"v1.27.3-eks-a5565ad", strings.Replace(old128, "v1.28.4", "v1.27.3", 1)},
		{"v1.28.4\x1b[2J", old128}, // what follows the numbers is never printed
		{"v1.29.0", ""},
		{"v1.37.2", ""},
		{"v2.0.0", ""},
		{"", ""},        // a recording without the version
		{"garbage", ""}, // nothing to say about what cannot be read
	} {
		if got := oldServerNote(tc.version); got != tc.want {
			t.Errorf("oldServerNote(%q) = %q, want %q", tc.version, got, tc.want)
		}
	}
}

// TestServerVersionFromDiscovery: connecting asks the server its version (discovery, here a fake
// that answers v1.28.4 or v1.37.2: the e2e cluster is v1.37.2, so no real server says the
// first), and an old one is said once on standard error.
func TestServerVersionFromDiscovery(t *testing.T) {
	for _, tc := range []struct {
		server, stderr string
	}{
		{"v1.28.4", "sidecar-top: note: " + old128 + "\n"},
		{"v1.37.2", ""},
	} {
		t.Run(tc.server, func(t *testing.T) {
			c := fake.NewClientset(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}})
			c.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &k8sversion.Info{GitVersion: tc.server}
			c.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
				r := a.(clienttesting.CreateAction).GetObject().(*authv1.SelfSubjectAccessReview)
				r.Status.Allowed = true
				return true, r, nil
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			got, _, err := connect(ctx, c, watch.Target{Kind: watch.TargetPod, Name: "app", Namespace: "ns"}, "https://fake:6443", false)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.server {
				t.Errorf("server version %q, want %q", got, tc.server)
			}
			var stderr strings.Builder
			sayNote(&stderr, oldServerNote(got))
			if diff := cmp.Diff(stderr.String(), tc.stderr); diff != "" {
				t.Errorf("standard error (-got +want):\n%s", diff)
			}
		})
	}
}

// TestReplayOldServer: a recording made against a server older than 1.29 (its header says
// which) is replayed with the note once on standard error and in the JSON's notes; one made
// against v1.37.2 has neither.
func TestReplayOldServer(t *testing.T) {
	for _, tc := range []struct {
		server string
		notes  []string
		stderr string
	}{
		{"v1.28.4", []string{old128}, "sidecar-top: note: " + old128 + "\n"},
		{"v1.37.2", nil, ""},
	} {
		t.Run(tc.server, func(t *testing.T) {
			path := recordingFrom(t, tc.server)
			code, stdout, stderr := runCmd(t, "replay", path, "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff(stderr, tc.stderr); diff != "" {
				t.Errorf("standard error (-got +want):\n%s", diff)
			}
			var doc struct {
				Notes []string `json:"notes"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(doc.Notes, tc.notes); diff != "" {
				t.Errorf("notes (-got +want):\n%s", diff)
			}
		})
	}
}

// recordingFrom is the embedded termination-order recording (made on v1.37.2) with its header's
// server version set to server, written to a file.
func recordingFrom(t *testing.T, server string) string {
	t.Helper()
	b, err := recordings.Bytes("termination-order")
	if err != nil {
		t.Fatal(err)
	}
	const was = `"serverVersion":"v1.37.2"`
	if !strings.Contains(string(b), was) {
		t.Fatalf("the recording's header lacks %s", was)
	}
	return writeFile(t, filepath.Base(t.Name())+".jsonl", strings.Replace(string(b), was, `"serverVersion":"`+server+`"`, 1))
}

// TestRecordOldServer: record against a server that says it is v1.28.4 (a fake API server that
// answers discovery, the namespace, the access reviews, and empty lists and watches) says the
// note once on standard error, and its recording names the version, so a replay says it too.
func TestRecordOldServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/version":
			io.WriteString(w, `{"major":"1","minor":"28","gitVersion":"v1.28.4"}`)
		case r.URL.Path == "/api/v1/namespaces/ns":
			io.WriteString(w, `{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"ns"}}`)
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/selfsubjectaccessreviews"):
			var review map[string]any
			if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			review["status"] = map[string]any{"allowed": true}
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(review)
		case r.URL.Query().Get("watch") == "true":
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // nothing happens
		case r.URL.Path == "/api/v1/namespaces/ns/pods":
			io.WriteString(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`)
		case r.URL.Path == "/api/v1/namespaces/ns/events":
			io.WriteString(w, `{"kind":"EventList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "old.jsonl")
	code, _, stderr := runCmd(t, "record", "--kubeconfig", kubeconfig(t, srv.URL), "-n", "ns", "pod/app", "--output-file", out, "--timeout", "2s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "sidecar-top: note: "+old128+"\n"); n != 1 {
		t.Errorf("the note is said %d times, want once; standard error:\n%s", n, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if header, _, _ := strings.Cut(string(b), "\n"); !strings.Contains(header, `"serverVersion":"v1.28.4"`) {
		t.Errorf("the recording's header does not name the server's version: %s", header)
	}
}
