package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"
)

// TestVerbosity: -v/--v is kubectl's verbosity, klog's levels on standard error, and not the
// version (-v=6 failed: "-v" was --version); --version and version still print it. A run's
// verbosity ends with it.
func TestVerbosity(t *testing.T) {
	if inOwnProcess(t) {
		return
	}
	cfg := unreachableConfig(t)
	for _, args := range [][]string{{"-v=6"}, {"--v", "6"}, {"-v", "6"}, {"--vmodule", "loader=6"}} {
		code, _, stderr := runCmd(t, append(args, "--kubeconfig", cfg, "pod/x", "--plain")...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 1 || len(lines) < 2 || !strings.Contains(stderr, "] Config loaded from file") ||
			!strings.Contains(lines[len(lines)-1], reach) {
			t.Errorf("%v: exit %d, stderr %q; want client-go's log, then the error", args, code, stderr)
		}
		if klog.V(1).Enabled() {
			t.Errorf("%v: klog's verbosity outlived the run", args)
		}
	}
	code, _, stderr := runCmd(t, "--kubeconfig", cfg, "pod/x", "--plain")
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("without -v: exit %d, stderr %q; want the error alone", code, stderr)
	}
	for _, args := range [][]string{{"--version"}, {"version"}, {"-v=0", "version"}} {
		code, stdout, _ := runCmd(t, args...)
		if code != 0 || stdout != "sidecar-top version "+version+"\n" {
			t.Errorf("%v: exit %d, stdout %q", args, code, stdout)
		}
	}
}

// TestVerbosityUnderTheView: the view and client-go's log would share the terminal; -v is
// refused there before anything connects, and taken with --plain or standard error elsewhere.
func TestVerbosityUnderTheView(t *testing.T) {
	if inOwnProcess(t) {
		return
	}
	cfg := unreachableConfig(t)
	t.Setenv("KUBECONFIG", cfg)
	for _, tc := range []struct {
		errTerminal bool
		args        []string
		want        string
	}{
		{true, []string{"-v=6", "pod/x"}, "-v 6: client-go's log goes to standard error, the terminal the view draws on"},
		{true, []string{"-v=6", "record", "pod/x", "--output-file", t.TempDir() + "/r.jsonl"}, "-v 6: client-go's log goes to standard error"},
		{true, []string{"-v=6", "pod/x", "--plain"}, reach},
		{false, []string{"-v=6", "pod/x"}, reach},
	} {
		var out, errOut bytes.Buffer
		s := streams{IOStreams: genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
			terminal: true, errTerminal: tc.errTerminal}
		if code := run(tc.args, s); code != 1 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v (stderr a terminal: %v): exit %d, stderr %q; want %q", tc.args, tc.errTerminal, code, errOut.String(), tc.want)
		}
	}
}

// ownProcessEnv names the test a re-run of the test binary is to run (inOwnProcess).
const ownProcessEnv = "SIDECAR_TOP_TEST_OWN_PROCESS"

// inOwnProcess runs the test again alone in a new process of the test binary and reports true
// when it did (the caller returns then, the child's result being the test's); in that child it
// reports false and the test runs. -v sets klog's logger, which is the process's and is read
// without a lock by client-go's goroutines, those other tests left running too: set beside them
// it is a data race, as klog.SetLogger says (call it before any logging).
func inOwnProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(ownProcessEnv) == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), ownProcessEnv+"="+t.Name())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s, in a process of its own: %v\n%s", t.Name(), err, out)
	}
	return true
}
