package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// silentServer accepts connections and never answers; it counts the connections.
type silentServer struct {
	ln    net.Listener
	conns atomic.Int64
	mu    sync.Mutex
	held  []net.Conn
}

func newSilentServer(t *testing.T) *silentServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			s.mu.Lock()
			s.held = append(s.held, c)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.held {
			c.Close()
		}
	})
	return s
}

func (s *silentServer) url() string { return "https://" + s.ln.Addr().String() }

// TestRecordRefusesBeforeConnecting: a recording that exists, or cannot be created, is refused
// before sidecar-top connects to anything, and an existing file is left as it was.
func TestRecordRefusesBeforeConnecting(t *testing.T) {
	srv := newSilentServer(t)
	cfg := kubeconfig(t, srv.url())
	exists := writeFile(t, "exists.jsonl", "mine")
	tests := []struct{ path, want string }{
		{exists, "exists.jsonl exists: record will not overwrite it; choose another name"},
		{filepath.Join(t.TempDir(), "no", "such", "dir.jsonl"), "cannot create the recording: open "},
		{t.TempDir(), "exists: record will not overwrite it"}, // a directory
	}
	for _, tt := range tests {
		code, _, stderr := runCmd(t, "record", "--kubeconfig", cfg, "app", "--output-file", tt.path, "--timeout", "30s")
		if code != 1 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want 1 and one line with %q", tt.path, code, stderr, tt.want)
		}
	}
	if n := srv.conns.Load(); n != 0 {
		t.Errorf("%d connections to the server; want none", n)
	}
	if b, err := os.ReadFile(exists); err != nil || string(b) != "mine" {
		t.Errorf("the existing file now holds %q (%v)", b, err)
	}
}

// TestRecordConnectFails: when connecting fails, the error states the real figure, and the file
// record created is removed: no empty recording is left behind.
func TestRecordConnectFails(t *testing.T) {
	srv := newSilentServer(t)
	tests := []struct {
		name string
		cfg  string
		args []string
		want string
	}{
		{"refused", unreachableConfig(t), nil, "cannot reach the API server at https://127.0.0.1:1: dial tcp 127.0.0.1:1: connect: connection refused"},
		{"silent, --timeout", kubeconfig(t, srv.url()), []string{"--timeout", "1s"},
			"the API server at " + srv.url() + " did not answer within 1s"},
		{"silent, --request-timeout", kubeconfig(t, srv.url()), []string{"--request-timeout", "1500ms"},
			"the API server at " + srv.url() + " did not answer within 1.5s"},
	}
	if !testing.Short() {
		// client-go gives up a TLS handshake after 10 s: the message said 15 s (issue 10).
		tests = append(tests, struct {
			name string
			cfg  string
			args []string
			want string
		}{"silent, no limit set", kubeconfig(t, srv.url()), nil, "the API server at " + srv.url() + " did not answer within 10s"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rec.jsonl")
			args := append([]string{"record", "--kubeconfig", tt.cfg, "app", "--output-file", path}, tt.args...)
			code, _, stderr := runCmd(t, args...)
			if code != 1 || !sameWait(stderr, "sidecar-top: "+tt.want+"\n") {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, tt.want)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("the recording was left behind (%v)", err)
			}
		})
	}
	if srv.conns.Load() == 0 {
		t.Error("the silent server saw no connection: the timeouts were not tested")
	}
}

// sameWait reports whether got is want, but that where want says "did not answer within D" the
// figure got says may be longer by up to half a second: the message says how long the run
// really waited (a client-side request timeout is measured, not the limit restated), and a
// loaded machine (-race, two cores) adds to it.
func sameWait(got, want string) bool {
	const within = " did not answer within "
	wi := strings.LastIndex(want, within)
	gi := strings.LastIndex(got, within)
	if wi < 0 || gi < 0 {
		return got == want
	}
	if got[:gi] != want[:wi] {
		return false
	}
	w, err1 := time.ParseDuration(strings.TrimSpace(want[wi+len(within):]))
	g, err2 := time.ParseDuration(strings.TrimSpace(got[gi+len(within):]))
	return err1 == nil && err2 == nil && g >= w && g <= w+500*time.Millisecond
}
