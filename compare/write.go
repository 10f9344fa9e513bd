package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sidecar-top/sidecar-top/assert"
	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// WriteJSON prints the comparison as indented JSON, with what a terminal could obey spelled as
// JSON escapes (jsonsafe), as every JSON output is: the names in it are the recordings' and
// their files'.
func WriteJSON(w io.Writer, d Diff) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(jsonsafe.Escape(b), '\n'))
	return err
}

// Write prints the comparison as plain tables: one per pair of pods, or one of the
// distributions; then what ended on one side only, and the thresholds. Names from the
// recordings are escaped for the terminal.
func Write(w io.Writer, d Diff) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "A: %s\nB: %s\n", present.Safe(d.A+targetNote(d.TargetA)), present.Safe(d.B+targetNote(d.TargetB)))
	if d.By == ByGap {
		fmt.Fprintf(tw, "\ngaps over all pods (the median's change decides)\n")
		writeRows(tw, d.Gaps, true)
	}
	for _, p := range d.Pairs {
		fmt.Fprintf(tw, "\npod %s (A) and %s (B)\n", present.Safe(p.A), present.Safe(p.B))
		writeRows(tw, p.Gaps, false)
	}
	for _, n := range d.OnlyA {
		fmt.Fprintf(tw, "\npod %s is only in A\n", present.Safe(n))
	}
	for _, n := range d.OnlyB {
		fmt.Fprintf(tw, "\npod %s is only in B\n", present.Safe(n))
	}
	writeEnds(tw, d.Ends)
	writeThresholds(tw, d.Thresholds)
	return tw.Flush()
}

// targetNote is " (target)" for a recording's header's target, or nothing.
func targetNote(target string) string {
	if target == "" {
		return ""
	}
	return " (" + target + ")"
}

func writeRows(w io.Writer, rows []GapRow, dist bool) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "  no named gaps")
		return
	}
	if dist {
		fmt.Fprintln(w, "  GAP\tPODS A/B\tA MEDIAN\tB MEDIAN\tCHANGE\tVERDICT\tA RANGE\tB RANGE")
	} else {
		fmt.Fprintln(w, "  GAP\tA\tB\tCHANGE\tVERDICT")
	}
	for _, r := range rows {
		change := "-"
		if r.Change != nil {
			change = assert.FormatSpan(*r.Change, true)
		}
		if !dist {
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\n", present.Safe(r.Name), median(r.A), median(r.B), change, r.Shift)
			continue
		}
		fmt.Fprintf(w, "  %s\t%d/%d\t%s\t%s\t%s\t%s\t%s\t%s\n", present.Safe(r.Name), pods(r.A), pods(r.B),
			median(r.A), median(r.B), change, r.Shift, spread(r.A), spread(r.B))
	}
}

// median is a side's span (with one pod, the pod's), or - when it lacks the gap.
func median(s *Side) string {
	if s == nil {
		return "-"
	}
	return assert.FormatSpan(s.Span, false)
}

func pods(s *Side) int {
	if s == nil {
		return 0
	}
	return s.Pods
}

// spread is the smallest to the largest estimate of a side.
func spread(s *Side) string {
	if s == nil {
		return "-"
	}
	one := func(d time.Duration) string { return assert.FormatSpan(timeline.Span{Value: d, Min: d, Max: d}, false) }
	return one(s.Smallest) + " to " + one(s.Largest)
}

// writeEnds says what ended on one side and never did on the other, a line a side:
//
//	job sc-b1 (A)  ended Complete at +37.67s [+37.00s, +37.67s]
//	job sc-b2 (B)  never ended: the recording ends with it Running (warning: classic-sidecar-blocks)
func writeEnds(w io.Writer, ends []EndChange) {
	if len(ends) == 0 {
		return
	}
	fmt.Fprintln(w, "\nended on one side only")
	for _, e := range ends {
		fmt.Fprintf(w, "  %s\t%s\n", endLabel(e.Object, e.A, "A"), endText(e.EndA))
		fmt.Fprintf(w, "  %s\t%s\n", endLabel(e.Object, e.B, "B"), endText(e.EndB))
	}
}

// endLabel names a side's pod or Job, or all its pods.
func endLabel(object, name, side string) string {
	if object == "pods" {
		return "pods of " + side
	}
	return object + " " + present.Safe(name) + " (" + side + ")"
}

// endText says how a side's pod or Job ended, or how many of its pods did.
func endText(e End) string {
	if e.Pods > 0 {
		s := fmt.Sprintf("%d of %d ended", e.EndedPods, e.Pods)
		if e.Ended {
			return s
		}
		return s + warningNote(e.Warnings)
	}
	if e.Ended {
		s := "ended " + present.Safe(e.How)
		if e.At != nil {
			s += " at " + assert.FormatSpan(*e.At, true)
		}
		return s
	}
	return "never ended: the recording ends with it " + present.Safe(e.How) + warningNote(e.Warnings)
}

func warningNote(ids []timeline.FindingID) string {
	if len(ids) == 0 {
		return ""
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return " (warning: " + present.Safe(strings.Join(s, ", ")) + ")"
}

// writeThresholds is a line per threshold and row it was applied to.
func writeThresholds(w io.Writer, rs []ThresholdResult) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nthresholds (--fail-on)")
	fmt.Fprintln(w, "  VERDICT\tTHRESHOLD\tPODS\tCHANGE")
	for _, r := range rs {
		pods := "all"
		if r.PodA != "" {
			pods = present.Safe(r.PodA) + " and " + present.Safe(r.PodB)
		}
		change := "-"
		if r.Change != nil {
			change = assert.FormatSpan(*r.Change, true)
		}
		if r.Percent != nil {
			change += fmt.Sprintf(" (%+.0f%%)", *r.Percent)
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", r.Verdict, present.Safe(r.Threshold), pods, change)
	}
}
