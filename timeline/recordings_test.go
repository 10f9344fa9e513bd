package timeline_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// build replays an embedded recording through the same translation and builder as live.
func build(t *testing.T, name string) timeline.Snapshot {
	t.Helper()
	b := timeline.NewBuilder()
	for _, o := range observationsOf(t, name) {
		b.Apply(o)
	}
	return b.Snapshot()
}

// TestRecordingsGolden pins the whole timeline of each real recording as text: every milestone
// with its bounds and source, every lane segment, the named gaps and the findings.
func TestRecordingsGolden(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			got := dump(build(t, name))
			path := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./timeline -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("timeline of %s changed (-want +got):\n%s", name, diff)
			}
		})
	}
}

func dump(s timeline.Snapshot) string {
	var b strings.Builder
	ts := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format("15:04:05.000000000")
	}
	var gaps map[*timeline.Milestone]*timeline.Span
	ms := func(indent string, list []*timeline.Milestone) {
		for _, m := range list {
			fmt.Fprintf(&b, "%s%-10s %-13s #%d %s [%s, %s] %-8s off=%s", indent, m.Container, m.Kind, m.Attempt,
				ts(m.At), ts(m.Earliest), ts(m.Latest), m.Source, span(m.Offset))
			if g := gaps[m]; g != nil {
				fmt.Fprintf(&b, " gap=%s", span(*g))
			} else if m.Gap != nil {
				fmt.Fprintf(&b, " gap=%s", span(*m.Gap))
			}
			if m.Reason != "" {
				fmt.Fprintf(&b, " reason=%s", m.Reason)
			}
			if m.ExitCode != nil {
				fmt.Fprintf(&b, " exit=%d%s", *m.ExitCode, strings.TrimRight(" "+m.Signal, " "))
			}
			if m.Count > 0 {
				fmt.Fprintf(&b, " count=%d", m.Count)
			}
			if m.Why != "" {
				fmt.Fprintf(&b, " why=%q", m.Why)
			}
			b.WriteString("\n")
		}
	}
	for _, p := range s.Pods.Items() {
		gaps = map[*timeline.Milestone]*timeline.Span{}
		for _, r := range p.Rows() {
			gaps[r.Milestone] = r.Gap
		}
		owner := ""
		if p.Owner != nil {
			owner = p.Owner.String()
		}
		fmt.Fprintf(&b, "pod %s/%s uid=%s owner=%s phase=%s status=%s deleted=%v\n", p.Namespace, p.Name, p.UID, owner, p.Phase, p.Status, p.Deleted)
		for _, st := range p.Statuses {
			fmt.Fprintf(&b, "  status %s %s\n", ts(st.At), st.Status)
		}
		ms("  ", seqPtrs(p.Milestones))
		for i := range p.Containers {
			c := &p.Containers[i]
			fmt.Fprintf(&b, "  container %s kind=%s restarts=%d state=%q\n", c.Name, c.Kind, c.RestartCount, c.State)
			var list []*timeline.Milestone
			for _, r := range c.Runs.Items() {
				list = append(list, ptrs(r.Milestones)...)
			}
			sort.SliceStable(list, func(i, j int) bool { return timeline.Before(list[i], list[j]) })
			ms("    ", list)
			for _, sg := range c.Segments() {
				fmt.Fprintf(&b, "    segment %-11s %-20s %s → %s\n", sg.State, sg.Reason, ts(sg.From), ts(sg.To))
			}
		}
		for _, g := range p.Gaps {
			fmt.Fprintf(&b, "  gap %-40s %s", g.Name, span(g.Span))
			if g.Why != "" {
				fmt.Fprintf(&b, " why=%q", g.Why)
			}
			b.WriteString("\n")
		}
		for _, f := range p.Findings() {
			fmt.Fprintf(&b, "  finding %s %s: %s\n", f.Severity, f.Container, f.Text)
		}
	}
	for _, j := range s.Jobs {
		fmt.Fprintf(&b, "job %s/%s status=%s active=%d succeeded=%d failed=%d\n", j.Namespace, j.Name, j.Status, j.Active, j.Succeeded, j.Failed)
		ms("  ", ptrs(j.Milestones))
		for _, f := range s.JobFindings(j) {
			fmt.Fprintf(&b, "  finding %s: pod %s: %s\n", f.Severity, f.Pod, f.Text)
		}
	}
	fmt.Fprintf(&b, "events %d notes %q\n", len(s.Events()), s.Notes)
	return b.String()
}

func seqPtrs(s timeline.Seq[timeline.Milestone]) []*timeline.Milestone {
	var out []*timeline.Milestone
	for _, m := range s.All() {
		out = append(out, m)
	}
	return out
}

func ptrs(ms []timeline.Milestone) []*timeline.Milestone {
	out := make([]*timeline.Milestone, len(ms))
	for i := range ms {
		out[i] = &ms[i]
	}
	return out
}

func span(s timeline.Span) string {
	return fmt.Sprintf("%.3f[%.3f,%.3f]", s.Value.Seconds(), s.Min.Seconds(), s.Max.Seconds())
}
