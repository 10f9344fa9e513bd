package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/assert"
	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// diffOptions are diff's flags.
type diffOptions struct {
	output string
	by     string
}

func newDiffCommand(s streams) *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two recordings' named gaps, and say which changed beyond their bounds",
		Long: `diff plays two recordings (- reads one from standard input) and sets their named gaps side by
side: A's, B's, and the change from A to B with its bounds. A change is real ("longer" or
"shorter") only when B's interval lies wholly outside A's, so that no reading of the evidence
makes them equal; otherwise it is "within bounds": noise, or too fine for the evidence to tell.

--by says which pods are compared: name pairs the pods of the same name; order pairs them in
the order they were created; gap compares each gap's distribution over all the pods of each
recording (count, median with its bounds, largest), the median's change deciding. auto, the
default, pairs by name when both recordings hold the same pod names, pairs the two pods when
each holds one, and compares distributions otherwise (a Job's or Deployment's pods).`,
		Example: `  sidecar-top diff before.jsonl after.jsonl
  sidecar-top diff --by gap -o json job-v1.jsonl job-v2.jsonl`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.output != "" && opts.output != "json" {
				return fmt.Errorf("-o %q: the only output format is json", opts.output)
			}
			if args[0] == "-" && args[1] == "-" {
				return fmt.Errorf("only one of A and B can be standard input")
			}
			a, ha, err := readFinal(cmd.Context(), s, args[0])
			if err != nil {
				return err
			}
			b, hb, err := readFinal(cmd.Context(), s, args[1])
			if err != nil {
				return err
			}
			d, err := diffTimelines(args[0], args[1], a, b, opts.by)
			if err != nil {
				return err
			}
			if ha != nil {
				d.TargetA = ha.Target
			}
			if hb != nil {
				d.TargetB = hb.Target
			}
			if opts.output == "json" {
				return writeDiffJSON(s.Out, d)
			}
			return writeDiff(s.Out, d)
		},
	}
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "json: print the comparison as JSON")
	cmd.Flags().StringVar(&opts.by, "by", "auto", "what to compare: auto, name, order (pods paired) or gap (distributions over the pods)")
	return cmd
}

// writeDiffJSON prints the comparison as indented JSON, with what a terminal could obey spelled
// as JSON escapes (jsonsafe), as every JSON output is: the names in it are the recordings' and
// their files'.
func writeDiffJSON(w io.Writer, d gapDiff) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(jsonsafe.Escape(b), '\n'))
	return err
}

// gapDiff is the comparison of two recordings.
type gapDiff struct {
	Kind string `json:"kind"` // SidecarTopDiff
	A    string `json:"a"`
	B    string `json:"b"`
	// TargetA and TargetB are what the recordings watched, from their headers.
	TargetA string `json:"targetA,omitempty"`
	TargetB string `json:"targetB,omitempty"`
	By      string `json:"by"` // name, order or gap: how pods were matched
	// Pairs are the paired pods' gaps (by name or order), Gaps the distributions (by gap).
	Pairs []podPair `json:"pairs,omitempty"`
	Gaps  []gapRow  `json:"gaps,omitempty"`
	// OnlyA and OnlyB are the pods left without a partner.
	OnlyA []string `json:"onlyA,omitempty"`
	OnlyB []string `json:"onlyB,omitempty"`
}

// podPair is one pod of A and one of B, and their gaps.
type podPair struct {
	A    string   `json:"a"`
	B    string   `json:"b"`
	Gaps []gapRow `json:"gaps"`
}

// gapRow is one named gap on both sides. A side is nil where its recording lacks the gap.
type gapRow struct {
	Name   string         `json:"name"`
	A      *gapSide       `json:"a"`
	B      *gapSide       `json:"b"`
	Change *timeline.Span `json:"change"`  // B - A, its bounds from both sides' bounds
	Shift  string         `json:"verdict"` // longer, shorter, within bounds, only in A, only in B
}

// gapSide is a gap in one recording: with one pod its span; over several, the median with its
// bounds (the median of the pods' lower bounds and of their upper ones, between which the
// median certainly lies), and the smallest and largest estimate.
type gapSide struct {
	Pods     int           `json:"pods"`
	Span     timeline.Span `json:"span"`
	Smallest time.Duration `json:"smallest"`
	Largest  time.Duration `json:"largest"`
}

// Verdicts of a gap's change.
const (
	shiftLonger  = "longer"
	shiftShorter = "shorter"
	shiftWithin  = "within bounds"
	shiftOnlyA   = "only in A"
	shiftOnlyB   = "only in B"
)

// diffTimelines matches the pods of a and b as by says and compares their gaps.
func diffTimelines(nameA, nameB string, a, b timeline.Snapshot, by string) (gapDiff, error) {
	d := gapDiff{Kind: "SidecarTopDiff", A: nameA, B: nameB}
	podsA, podsB := a.Pods.Slice(), b.Pods.Slice()
	switch by {
	case "auto":
		switch {
		case samePodNames(podsA, podsB):
			by = "name"
		case len(podsA) == 1 && len(podsB) == 1:
			by = "order"
		default:
			by = "gap"
		}
	case "name", "order", "gap":
	default:
		return d, fmt.Errorf("--by %q: want auto, name, order or gap", by)
	}
	d.By = by
	if by == "gap" {
		d.Gaps = compareGaps(gapsOf(podsA), gapsOf(podsB))
		return d, nil
	}
	pairs, onlyA, onlyB := matchPods(podsA, podsB, by == "name")
	for _, p := range pairs {
		d.Pairs = append(d.Pairs, podPair{A: p[0].Name, B: p[1].Name,
			Gaps: compareGaps(gapsOf(p[:1]), gapsOf(p[1:]))})
	}
	d.OnlyA, d.OnlyB = onlyA, onlyB
	return d, nil
}

func samePodNames(a, b []*timeline.Pod) bool {
	if len(a) != len(b) {
		return false
	}
	names := map[string]int{}
	for _, p := range a {
		names[p.Name]++
	}
	for _, p := range b {
		if names[p.Name] == 0 {
			return false
		}
		names[p.Name]--
	}
	return true
}

// matchPods pairs pods by name, or in order; and lists those left over.
func matchPods(a, b []*timeline.Pod, byName bool) (pairs [][2]*timeline.Pod, onlyA, onlyB []string) {
	used := make([]bool, len(b))
	for i, p := range a {
		j := -1
		switch {
		case byName:
			for k, q := range b {
				if !used[k] && q.Name == p.Name {
					j = k
					break
				}
			}
		case i < len(b):
			j = i
		}
		if j < 0 {
			onlyA = append(onlyA, p.Name)
			continue
		}
		used[j] = true
		pairs = append(pairs, [2]*timeline.Pod{p, b[j]})
	}
	for k, q := range b {
		if !used[k] {
			onlyB = append(onlyB, q.Name)
		}
	}
	return pairs, onlyA, onlyB
}

// namedSpans are the spans of each gap name over some pods, and the names in first-seen order.
type namedSpans struct {
	order []string
	spans map[string][]timeline.Span
}

func gapsOf(pods []*timeline.Pod) namedSpans {
	n := namedSpans{spans: map[string][]timeline.Span{}}
	for _, p := range pods {
		for _, g := range p.Gaps {
			if _, ok := n.spans[g.Name]; !ok {
				n.order = append(n.order, g.Name)
			}
			n.spans[g.Name] = append(n.spans[g.Name], g.Span)
		}
	}
	return n
}

// compareGaps compares each gap name of a and b: A's names first, then those only in B.
func compareGaps(a, b namedSpans) []gapRow {
	var rows []gapRow
	names := append([]string(nil), a.order...)
	for _, n := range b.order {
		if _, ok := a.spans[n]; !ok {
			names = append(names, n)
		}
	}
	for _, name := range names {
		r := gapRow{Name: name, A: summarize(a.spans[name]), B: summarize(b.spans[name])}
		switch {
		case r.B == nil:
			r.Shift = shiftOnlyA
		case r.A == nil:
			r.Shift = shiftOnlyB
		default:
			c := r.B.Span.Minus(r.A.Span)
			r.Change = &c
			switch {
			case c.Min > 0:
				r.Shift = shiftLonger
			case c.Max < 0:
				r.Shift = shiftShorter
			default:
				r.Shift = shiftWithin
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// summarize is a gap's side from its spans over the pods; nil if none has it. The median is
// the lower middle of an even count, taken of the estimates, the lower bounds and the upper
// bounds each: a median of values each within its bounds lies within the medians of the bounds.
func summarize(spans []timeline.Span) *gapSide {
	if len(spans) == 0 {
		return nil
	}
	median := func(get func(timeline.Span) time.Duration) time.Duration {
		v := make([]time.Duration, len(spans))
		for i, s := range spans {
			v[i] = get(s)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[(len(v)-1)/2]
	}
	s := &gapSide{Pods: len(spans), Span: timeline.Span{
		Value: median(func(s timeline.Span) time.Duration { return s.Value }),
		Min:   median(func(s timeline.Span) time.Duration { return s.Min }),
		Max:   median(func(s timeline.Span) time.Duration { return s.Max }),
	}}
	s.Smallest, s.Largest = spans[0].Value, spans[0].Value
	for _, sp := range spans[1:] {
		s.Smallest, s.Largest = min(s.Smallest, sp.Value), max(s.Largest, sp.Value)
	}
	return s
}

// targetNote is " (target)" for a recording's header's target, or nothing.
func targetNote(target string) string {
	if target == "" {
		return ""
	}
	return " (" + target + ")"
}

// writeDiff prints the comparison as plain tables: one per pair of pods, or one of the
// distributions. Names from the recordings are escaped for the terminal.
func writeDiff(w io.Writer, d gapDiff) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "A: %s\nB: %s\n", present.Safe(d.A+targetNote(d.TargetA)), present.Safe(d.B+targetNote(d.TargetB)))
	if d.By == "gap" {
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
	return tw.Flush()
}

func writeRows(w io.Writer, rows []gapRow, dist bool) {
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
func median(s *gapSide) string {
	if s == nil {
		return "-"
	}
	return assert.FormatSpan(s.Span, false)
}

func pods(s *gapSide) int {
	if s == nil {
		return 0
	}
	return s.Pods
}

// spread is the smallest to the largest estimate of a side.
func spread(s *gapSide) string {
	if s == nil {
		return "-"
	}
	one := func(d time.Duration) string { return assert.FormatSpan(timeline.Span{Value: d, Min: d, Max: d}, false) }
	return one(s.Smallest) + " to " + one(s.Largest)
}
