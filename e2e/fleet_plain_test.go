//go:build e2e

package e2e

import (
	"cmp"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// plainRow is a line of --plain's table, by column title.
type plainRow map[string]string

func (r plainRow) key() podKey { return podKey{r["NAMESPACE"], r["POD"]} }

// cellSep separates --plain's cells: tabwriter pads with two spaces at least, and no cell holds two.
var cellSep = regexp.MustCompile(`\s{2,}`)

// parsePlainRow reads a line of --plain's table; ok is false for another line.
func parsePlainRow(line string) (plainRow, bool) {
	cells := cellSep.Split(strings.TrimSpace(line), -1)
	if len(cells) != len(fleet.Titles) || strings.HasPrefix(line, "#") || cells[0] == fleet.Titles[0] {
		return nil, false
	}
	r := plainRow{}
	for i, c := range cells {
		r[fleet.Titles[i]] = c
	}
	return r, true
}

// plainSummary is the line after the first table: "# SCOPE: N pods, N with a native sidecar, N
// classic, N hidden".
var plainSummary = regexp.MustCompile(`(?m)^# all namespaces -l e2e-fleet=\w+: (\d+) pods, (\d+) with a native sidecar, (\d+) classic, (\d+) hidden$`)

// checkFleetPlain: -A -l SEL --plain prints the header, one line per pod with a sidecar and
// the counts, once the pods listed are in; then, as drain-ok and drain-killed are deleted, their
// rows again: Terminating, then with the deletion's gap (whose truth lies in the bounds shown)
// and drain-killed's killed-after-grace. Ctrl-C ends it with status 0.
func checkFleetPlain(t *testing.T, f *harness.Fleet) {
	ctx := t.Context()
	cmd := exec.Command(env.Binary, "--kubeconfig", env.Kubeconfig, "-A", "-l", f.Selector(), "--plain")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	defer func() {
		_ = cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("sidecar-top --plain printed:\n%s\nstandard error:\n%s", stdout.String(), stderr.String())
		}
	}()
	waitFor(t, 60*time.Second, "--plain's first table", func() (bool, string) {
		return plainSummary.MatchString(stdout.String()), tail(stdout.String(), 500) + tail(stderr.String(), 500)
	})
	first, _, _ := strings.Cut(stdout.String(), "\n# ")
	lines := strings.Split(first, "\n")
	if got := cellSep.Split(strings.TrimSpace(lines[0]), -1); !slices.Equal(got, fleet.Titles[:]) {
		t.Errorf("--plain's header %q, want %q", got, fleet.Titles)
	}
	statuses := kubectlStatuses(t, f)
	var want, got []podKey
	for k := range statuses {
		if shapeWant(k.Name) != "none" {
			want = append(want, k)
		}
	}
	for _, l := range lines[1:] {
		r, ok := parsePlainRow(l)
		if !ok {
			t.Errorf("--plain's first table has a line that is no row: %q", l)
			continue
		}
		got = append(got, r.key())
	}
	// By pod, then namespace: --plain sorts by POD.
	slices.SortFunc(want, func(a, b podKey) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Namespace, b.Namespace))
	})
	if !slices.Equal(got, want) {
		t.Errorf("--plain's first table, -A: pods\n%v\nwant one line for each with a sidecar, by name:\n%v", got, want)
	}
	m := plainSummary.FindStringSubmatch(stdout.String())
	if n, _ := strconv.Atoi(m[1]); n != len(statuses) || m[4] != strconv.Itoa(len(statuses)-len(want)) {
		t.Errorf("--plain's counts %q: want %d pods, %d hidden", m[0], len(statuses), len(statuses)-len(want))
	}

	// The lines printed from now on: the Events listed after the pods may still refine a row.
	from := len(stdout.String())
	for _, p := range []string{podDrainOK, podDrainKilled} {
		if err := f.Delete(ctx, "seed", p); err != nil {
			t.Fatal(err)
		}
	}
	ns := f.Namespaces["seed"]
	later := func(pod string) []plainRow {
		var out []plainRow
		for _, l := range strings.Split(stdout.String()[from:], "\n") {
			if r, ok := parsePlainRow(l); ok && r.key() == (podKey{ns, pod}) {
				out = append(out, r)
			}
		}
		return out
	}
	gone := func(pod string) bool {
		out, err := f.Kubectl(ctx, "seed", "get", "pod", pod, "--ignore-not-found", "-o", "name")
		return err == nil && out == ""
	}
	waitFor(t, 60*time.Second, "drain-ok's rows after its deletion", func() (bool, string) {
		rs := later(podDrainOK)
		return gone(podDrainOK) && len(rs) > 0 && rs[len(rs)-1]["DELETE→EXIT"] != "-", fmt.Sprint(rs)
	})
	waitFor(t, 60*time.Second, "drain-killed's row with its finding", func() (bool, string) {
		rs := later(podDrainKilled)
		return len(rs) > 0 && strings.HasPrefix(rs[len(rs)-1]["FINDING"], string(timeline.FindingKilledAfterGrace)), fmt.Sprint(rs)
	})
	time.Sleep(harness.SettleTime) // what the deletions changed is in
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("--plain exited %d on Ctrl-C, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("--plain did not end within 10 s of Ctrl-C")
	}
	for _, p := range []string{podDrainOK, podDrainKilled} {
		checkPlainDeletion(t, f, p, later(p))
	}
}

// exitLines are, by deleted pod and container, the line each writes last before its exit ("" for
// drain-killed's app: it is killed).
var exitLines = map[string]map[string]string{
	podDrainOK:     {"proxy": "proxy exiting", "app": "app exiting"},
	podDrainKilled: {"proxy": "proxy exiting", "app": ""},
}

// checkPlainDeletion: a deleted pod's row came again, Terminating first, and its last line's
// gaps hold the truth: DELETE→EXIT from the kubectl delete call to the last exit of the pod's
// containers, APP→SIDECAR EXIT from the app's exit to the proxy's, as containerd stamped them.
func checkPlainDeletion(t *testing.T, f *harness.Fleet, pod string, rows []plainRow) {
	t.Helper()
	var statuses []string
	for _, r := range rows {
		statuses = append(statuses, r["STATUS"])
	}
	// Lines still Running are the pod's row refined by Events listed late, not the deletion.
	changed := slices.IndexFunc(statuses, func(s string) bool { return s != "Running" })
	if changed < 0 || statuses[changed] != "Terminating" {
		t.Errorf("%s: after its deletion its row says STATUS %v, want Terminating first", pod, statuses)
		return
	}
	last := rows[len(rows)-1]
	t.Logf("%s after its deletion: %d lines, STATUS %v, last %v", pod, len(rows), statuses, last)
	lastExit, ok := lastExitOf(f, pod)
	if !ok {
		t.Fatalf("SCENARIO BROKEN: the runtime has no exit of some of %s's containers", pod)
	}
	points := []harness.Point{exitPoint("proxy", exitLines[pod]["proxy"]), exitPoint("app", exitLines[pod]["app"])}
	for _, g := range []struct {
		column string
		gap    timeline.Gap
	}{
		{"DELETE→EXIT", timeline.Gap{From: timeline.MilestoneRef{Kind: timeline.MDeleting},
			To: timeline.MilestoneRef{Container: lastExit, Kind: timeline.MExit}}},
		{"APP→SIDECAR EXIT", timeline.Gap{From: timeline.MilestoneRef{Container: "app", Kind: timeline.MExit},
			To: timeline.MilestoneRef{Container: "proxy", Kind: timeline.MExit}}},
	} {
		truth, ok := f.GapOf(pod, g.gap, points)
		if !ok {
			t.Fatalf("%s: no truth of %s", pod, g.column)
		}
		text := last[g.column]
		lo, hi, res, err := parseGapText(text)
		if err != nil {
			t.Errorf("%s: %s %q: %v", pod, g.column, text, err)
			continue
		}
		t.Logf("%s: %s %s; truth %v in [%v, %v] (the last exit: %s's)", pod, g.column, text, truth.Value, truth.Lo, truth.Hi, lastExit)
		if truth.Hi < lo-res || truth.Lo > hi+res {
			t.Errorf("%s: %s: TRUTH OUTSIDE THE TOOL'S BOUNDS: the runtime says %v, in [%v, %v]; the table shows %s",
				pod, g.column, truth.Value, truth.Lo, truth.Hi, text)
		}
	}
}

// The ways the table writes a gap (textfmt.Gap): "4.65s (4.00–5.86)", "2.01s ±0.50", "0.25s".
var (
	gapBounds = regexp.MustCompile(`^-?[\d.]+s \((-?[\d.]+)–(-?[\d.]+)\)$`)
	gapPlus   = regexp.MustCompile(`^(-?[\d.]+)s ±([\d.]+)$`)
	gapExact  = regexp.MustCompile(`^(-?[\d.]+)s$`)
)

// parseGapText reads the bounds a gap's text shows, and res, how far they may be from the tool's
// own: the text rounds each figure to 10 ms (so 5 ms off at most), and "v ±p" stands for bounds
// up to 10 ms apart in distance from v. This is the text's resolution, not a tolerance of time.
func parseGapText(s string) (lo, hi, res time.Duration, err error) {
	sec := func(x string) time.Duration {
		v, _ := strconv.ParseFloat(x, 64)
		return time.Duration(v * float64(time.Second))
	}
	switch {
	case gapBounds.MatchString(s):
		m := gapBounds.FindStringSubmatch(s)
		return sec(m[1]), sec(m[2]), 5 * time.Millisecond, nil
	case gapPlus.MatchString(s):
		m := gapPlus.FindStringSubmatch(s)
		v, p := sec(m[1]), sec(m[2])
		return v - p, v + p, 20 * time.Millisecond, nil
	case gapExact.MatchString(s):
		v := sec(gapExact.FindStringSubmatch(s)[1])
		return v, v, 5 * time.Millisecond, nil
	}
	return 0, 0, 0, fmt.Errorf("not a gap as the table writes it")
}
