//go:build e2e

package e2e

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The fleet view's terminal: tall and wide enough for every row with a sidecar and every column.
const viewRows, viewCols = 50, 240

// startFleetView starts `sidecar-top ARGS` on a terminal (script(1)'s pseudo-terminal), as
// startView does for a pod.
func startFleetView(t *testing.T, args ...string) *liveView {
	t.Helper()
	shell := fmt.Sprintf("stty rows %d cols %d; exec %s --kubeconfig %s %s", viewRows, viewCols, env.Binary, env.Kubeconfig,
		strings.Join(args, " "))
	v := &liveView{cmd: exec.Command("script", "-qfec", shell, "/dev/null"), done: make(chan struct{})}
	v.cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	v.cmd.Stdout, v.cmd.Stderr = &v.out, &v.out
	in, err := v.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	v.in = in
	if err := v.cmd.Start(); err != nil {
		t.Fatalf("script: %v", err)
	}
	go func() { _ = v.cmd.Wait(); close(v.done) }()
	t.Cleanup(v.kill)
	return v
}

// screen is what the terminal shows after all the view wrote, line by line. Bubble Tea's
// renderer (standard_renderer.go, flush) draws each frame from the top left (ESC[H): a line that
// changed is written whole, then ESC[K and CR LF; over a line that did not it moves down (LF);
// ESC[J after the last line clears what a longer frame left below.
func screen(out string) []string {
	lines := make([]string, viewRows)
	frames := strings.Split(out, ansi.CursorHomePosition)
	for _, fr := range frames[1:] {
		parts := strings.Split(fr, "\n")
		for i, p := range parts {
			if i >= viewRows {
				break
			}
			if p != "" {
				lines[i] = strings.TrimRight(ansi.Strip(p), "\r ")
			}
		}
		if strings.Contains(parts[len(parts)-1], ansi.EraseScreenBelow) {
			clear(lines[min(len(parts), viewRows):])
		}
	}
	return lines
}

// viewTable is the fleet table on a screen: its counts line, the header and every row's cells
// by column title.
type viewTable struct {
	counts, header string
	rows           []map[string]string
}

// tableOn reads the table on the screen, by the columns' places in its header; ok is false when
// the screen shows no table.
func tableOn(lines []string) (viewTable, bool) {
	h := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "POD") && strings.Contains(l, "SC-RESTARTS") })
	if h < 1 {
		return viewTable{}, false
	}
	vt := viewTable{counts: lines[h-1], header: lines[h]}
	head := []rune(lines[h])
	var starts []int
	for _, title := range fleet.Titles {
		i := strings.Index(lines[h], title)
		if i < 0 {
			return viewTable{}, false
		}
		starts = append(starts, len([]rune(lines[h][:i])))
	}
	starts = append(starts, len(head)+viewCols)
	for _, l := range lines[h+1:] {
		r := []rune(l)
		if len(r) < 3 || strings.TrimSpace(string(r[:2])) != "" && !strings.ContainsAny(string(r[:2]), "›>") {
			break // the status line, or a blank one
		}
		row := map[string]string{}
		for i, title := range fleet.Titles {
			a, b := min(starts[i], len(r)), min(starts[i+1], len(r))
			row[title] = strings.TrimSpace(string(r[a:b]))
		}
		if row["POD"] == "" {
			break
		}
		vt.rows = append(vt.rows, row)
	}
	return vt, true
}

// press sends keys to the view and waits until its table shows what ok wants.
func press(t *testing.T, v *liveView, keys, what string, ok func(viewTable) bool) viewTable {
	t.Helper()
	v.keys(t, keys)
	prev := ""
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		// The same screen twice, 200 ms apart: a frame read while it is written mixes two.
		s := screen(v.out.String())
		now := strings.Join(s, "\n")
		if vt, found := tableOn(s); found {
			if ok(vt) && now == prev {
				var pods []string
				for _, r := range vt.rows {
					pods = append(pods, r["POD"]+" "+r["SC-RESTARTS"]+" "+r["FINDING"])
				}
				t.Logf("after %q, %s: %s\n  %s", keys, what, vt.counts, strings.Join(pods, "\n  "))
				return vt
			}
		}
		prev = now
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("after %q the view did not show %s within 15 s; the screen:\n%s", keys, what,
		strings.Join(screen(v.out.String()), "\n"))
	return viewTable{}
}

// keys types keys one at a time, as a user does: Bubble Tea takes runes read together as one
// key ("/mesh"), which no binding matches.
func (v *liveView) keys(t *testing.T, keys string) {
	t.Helper()
	for _, k := range keys {
		if _, err := v.in.Write([]byte(string(k))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// headerSorted reports whether the column reads in its title's direction: ↑ ascending, ↓ descending.
func headerSorted(title string, desc bool) func(viewTable) bool {
	mark := map[bool]string{true: "↓", false: "↑"}[desc]
	return func(vt viewTable) bool { return strings.Contains(vt.header, title+mark) }
}

// findingSeverity is the severity of each finding the fleet's pods show (timeline/findings.go),
// for the order of the FINDING column; checkFleetView holds it to -o json's findings. It is
// not read from -o json alone: that may have printed before the Events that some rest on.
var findingSeverity = map[timeline.FindingID]timeline.Severity{
	timeline.FindingCrashLoop: timeline.SeverityWarning, timeline.FindingClassicSidecarBlocks: timeline.SeverityWarning,
	timeline.FindingKilledAfterGrace: timeline.SeverityWarning, timeline.FindingSidecarRaced: timeline.SeverityWarning,
	timeline.FindingGraceSpentByApps: timeline.SeverityWarning, timeline.FindingSlowStartup: timeline.SeverityInfo,
	timeline.FindingReadinessHeld: timeline.SeverityInfo, timeline.FindingStoppedTogether: timeline.SeverityInfo,
	timeline.FindingSidecarTeardownExit: timeline.SeverityInfo,
}

// checkFleetView: on a terminal `-A -l SEL` opens on the table of the pods with a sidecar; N sorts
// by pod, R by sidecar restarts (most first), F by finding (worst first, then reversed), ties in
// name order; / filters (the mesh Deployment's pods only), esc clears it; enter opens a pod's
// lanes and esc goes back.
func checkFleetView(t *testing.T, f *harness.Fleet) {
	d := fleetJSON(t, "-A", "-l", f.Selector()) // the rows the table should show
	restarts := map[string]int32{}
	var names []string
	for _, r := range d.Rows {
		names = append(names, r.Name)
		restarts[r.Name] = r.SidecarRestarts
		for _, fd := range r.Findings {
			if s, ok := findingSeverity[fd.ID]; !ok || s != fd.Severity {
				t.Errorf("%s: finding %s is a %s, the test has it a %q", r.Name, fd.ID, fd.Severity, s)
			}
		}
	}
	// A row's weight by its FINDING cell, "ID +N" (fleet's findingWeight): warnings first, more
	// findings first among rows of one severity.
	weight := func(row map[string]string) int {
		id, more, _ := strings.Cut(row["FINDING"], " +")
		switch {
		case id == "-":
			return 0
		case findingSeverity[timeline.FindingID(id)] == "":
			t.Errorf("%s: finding %q, whose severity the test does not know", row["POD"], id)
		}
		w := 1 + atoi(more)
		if findingSeverity[timeline.FindingID(id)] == timeline.SeverityWarning {
			w += 1000
		}
		return w
	}
	v := startFleetView(t, "-A", "-l", f.Selector())
	all := func(vt viewTable) bool { return len(vt.rows) == len(d.Rows) }
	vt := press(t, v, "", "every pod with a sidecar, worst finding first", func(vt viewTable) bool {
		return all(vt) && headerSorted("FINDING", true)(vt)
	})
	byFinding := func(a, b map[string]string) int { return cmp.Compare(weight(a), weight(b)) }
	worstFirst := func(a, b map[string]string) int { return -byFinding(a, b) }
	checkOrder(t, "opening (FINDING↓)", vt, worstFirst)

	vt = press(t, v, "N", "POD↑", func(vt viewTable) bool { return all(vt) && headerSorted("POD", false)(vt) })
	var got []string
	for _, r := range vt.rows {
		got = append(got, r["POD"])
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("N: the table's pods\n%v\nwant every pod with a sidecar, by name:\n%v", got, names)
	}

	vt = press(t, v, "R", "SC-RESTARTS↓", func(vt viewTable) bool { return all(vt) && headerSorted("SC-RESTARTS", true)(vt) })
	checkOrder(t, "R (SC-RESTARTS↓)", vt, func(a, b map[string]string) int {
		return -cmp.Compare(atoi(a["SC-RESTARTS"]), atoi(b["SC-RESTARTS"]))
	})
	for _, r := range vt.rows {
		n, err := strconv.Atoi(r["SC-RESTARTS"])
		switch {
		case err != nil:
			t.Errorf("R: %s's SC-RESTARTS %q", r["POD"], r["SC-RESTARTS"])
		case r["POD"] != podCrash && int32(n) != restarts[r["POD"]]:
			t.Errorf("R: %s's SC-RESTARTS %d, -o json said %d", r["POD"], n, restarts[r["POD"]])
		}
	}
	if vt.rows[0]["POD"] != podCrash {
		t.Errorf("R: the first row is %s, want %s, the only sidecar that restarts", vt.rows[0]["POD"], podCrash)
	}

	vt = press(t, v, "F", "FINDING↓", func(vt viewTable) bool { return all(vt) && headerSorted("FINDING", true)(vt) })
	checkOrder(t, "F (FINDING↓)", vt, worstFirst)
	vt = press(t, v, "F", "FINDING↑", func(vt viewTable) bool { return all(vt) && headerSorted("FINDING", false)(vt) })
	checkOrder(t, "F again (FINDING↑)", vt, byFinding)

	vt = press(t, v, "/mesh\r", "the mesh pods only", func(vt viewTable) bool {
		return strings.Contains(vt.counts, "filter mesh (") && !strings.Contains(vt.counts, "▏")
	})
	mesh := 0
	for _, n := range names {
		if strings.HasPrefix(n, "mesh-") {
			mesh++
		}
	}
	if !strings.Contains(vt.counts, fmt.Sprintf("filter mesh (%d shown)", mesh)) || len(vt.rows) != mesh || mesh != 6 {
		t.Errorf("/mesh: counts %q, %d rows; want the 6 mesh pods", vt.counts, len(vt.rows))
	}
	for _, r := range vt.rows {
		if !strings.HasPrefix(r["POD"], "mesh-") || r["OWNER"] != "Deployment/mesh" {
			t.Errorf("/mesh shows %s (OWNER %s)", r["POD"], r["OWNER"])
		}
	}
	press(t, v, "\x1b", "every pod again", func(vt viewTable) bool { return all(vt) && !strings.Contains(vt.counts, "filter") })

	press(t, v, "/crash-loop\r", "crash-loop alone", func(vt viewTable) bool {
		return len(vt.rows) == 1 && vt.rows[0]["POD"] == podCrash && !strings.Contains(vt.counts, "▏")
	})
	v.keys(t, "\r")
	waitFor(t, 15*time.Second, "enter opens crash-loop's lanes", func() (bool, string) {
		s := screen(v.out.String())
		_, table := tableOn(s)
		text := strings.Join(s, "\n")
		return !table && strings.Contains(text, podCrash) && strings.Contains(text, "sidecar") && strings.Contains(text, "app"), text
	})
	press(t, v, "\x1b", "the table again, at crash-loop", func(vt viewTable) bool {
		return len(vt.rows) == 1 && vt.rows[0]["POD"] == podCrash
	})
	v.stop(t, 0)
}

// checkOrder checks that the rows are in the order by says, and in name order where it ties
// (namespace, then pod).
func checkOrder(t *testing.T, what string, vt viewTable, by func(a, b map[string]string) int) {
	t.Helper()
	for i := 1; i < len(vt.rows); i++ {
		a, b := vt.rows[i-1], vt.rows[i]
		c := by(a, b)
		if c == 0 {
			c = cmp.Or(strings.Compare(a["NAMESPACE"], b["NAMESPACE"]), strings.Compare(a["POD"], b["POD"]))
		}
		if c > 0 {
			t.Errorf("%s: row %d %s/%s (SC-RESTARTS %s, FINDING %s) before %s/%s (SC-RESTARTS %s, FINDING %s): out of order",
				what, i, a["NAMESPACE"], a["POD"], a["SC-RESTARTS"], a["FINDING"], b["NAMESPACE"], b["POD"], b["SC-RESTARTS"], b["FINDING"])
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
