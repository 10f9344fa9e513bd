package export

import (
	"bytes"
	"strings"
	"testing"
)

// section is the text of Markdown report md from the heading that starts with head to the next
// heading of the same level or above.
func section(md, head string) string {
	i := strings.Index(md, "\n"+head)
	if i < 0 {
		return ""
	}
	level := strings.Index(head, " ")
	rest := md[i+1+len(head):]
	for _, h := range []string{"\n## ", "\n### "}[:max(level-1, 1)] {
		if j := strings.Index(rest, h); j >= 0 {
			rest = rest[:j]
		}
	}
	return head + rest
}

// TestMarkdownWhy: the report says why each milestone and named gap came when it did, as the
// view's WHY column and --explain do: the milestone table and the named gaps have a Why column.
func TestMarkdownWhy(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, recording(t, "job-native-sidecar")); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	milestones := section(md, "### Milestones")
	if !strings.Contains(milestones, "| Offset | ± | Gap | Container | Milestone | Source | Detail | Why |") {
		t.Errorf("the milestone table has no Why column:\n%.400s", milestones)
	}
	if !strings.Contains(milestones, "| started | observed |  | no startupProbe: started as soon as it ran |") {
		t.Errorf("the sidecar's started row lacks its why:\n%s", milestones)
	}
	gaps := section(md, "### Named gaps")
	for _, want := range []string{"| Gap | Length | Why |",
		"| sidecar SIGTERM → sidecar exit | 30.04s (28.54–30.54) | it did not exit on SIGTERM: SIGKILL when the grace period (30s) ran out |"} {
		if !strings.Contains(gaps, want) {
			t.Errorf("the named gaps lack %q:\n%s", want, gaps)
		}
	}
}

// TestMarkdownJobLane: a Job's section draws its lane, as the view and the SVG do: its
// conditions' marks on the Job's own time, with an axis.
func TestMarkdownJobLane(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, recording(t, "job-native-sidecar")); err != nil {
		t.Fatal(err)
	}
	job := section(b.String(), "## Job `sc-b1`")
	lane := section(job, "### Lane")
	lines := strings.Split(lane, "\n")
	var jobLine, axis string
	for i, l := range lines {
		if strings.HasPrefix(l, "job sc-b1 ") {
			jobLine = l
			if i+1 < len(lines) {
				axis = lines[i+1]
			}
		}
	}
	// SuccessCriteriaMet and Complete, 10 ms apart, share the last cell: Complete outranks it.
	if jobLine == "" || !strings.HasSuffix(jobLine, "─✓") || !strings.HasPrefix(jobLine, "job sc-b1 ─") {
		t.Errorf("no lane of the Job from its creation to its condition Complete (✓):\n%s", job)
	}
	if !strings.Contains(axis, "┊+0s") || !strings.Contains(axis, "┊+30s") {
		t.Errorf("the Job's lane has no axis: %q", axis)
	}
}
