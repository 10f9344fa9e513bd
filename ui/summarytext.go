package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// What the workload summary says, in plain output and in the view: each statistic with the
// interval it certainly lies in, and the pods' values as dots on a strip.

// boundsText is a duration with the interval it lies in: "0.22s [0.02s, 0.40s]", or "0.22s"
// when it is exact.
func boundsText(s timeline.Span) string {
	if s.Min == s.Value && s.Max == s.Value {
		return textfmt.Dur(s.Value)
	}
	return textfmt.Dur(s.Value) + " [" + textfmt.Bound(s.Min) + ", " + textfmt.Bound(s.Max) + "]"
}

// podsText is "1 pod" or "n pods".
func podsText(n int) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// stripCounts places a gap's values on a strip of width cells, from the smallest estimate (the
// first cell) to the largest (the last), and counts the pods in each cell.
func stripCounts(g timeline.GapSummary, width int) []int {
	counts := make([]int, max(width, 1))
	lo, hi := g.Min.Value, g.Max.Value
	for _, v := range g.Values {
		counts[stripCell(v.Span.Value, lo, hi, len(counts))]++
	}
	return counts
}

// stripCell is the cell of d on a strip of n cells from lo to hi.
func stripCell(d, lo, hi time.Duration, n int) int {
	if hi <= lo || n == 1 {
		return 0
	}
	c := int((float64(d-lo)*float64(n-1))/float64(hi-lo) + 0.5)
	return min(max(c, 0), n-1)
}

// The strip's glyphs: no pod, one, two to nine, ten or more.
const (
	stripNone = "─"
	stripOne  = "·"
	stripFew  = "•"
	stripMany = "●"
)

// stripGlyph is the glyph of a cell with n pods.
func stripGlyph(n int) string {
	switch {
	case n == 0:
		return stripNone
	case n == 1:
		return stripOne
	case n < 10:
		return stripFew
	}
	return stripMany
}

// stripText is a gap's strip of width cells between its smallest and largest estimate.
func stripText(g timeline.GapSummary, width int) string {
	var b strings.Builder
	for _, n := range stripCounts(g, width) {
		b.WriteString(stripGlyph(n))
	}
	return textfmt.Dur(g.Min.Value) + " " + b.String() + " " + textfmt.Dur(g.Max.Value)
}

// stripLegend says what the strip's glyphs mean.
const stripLegend = stripOne + " 1 pod  " + stripFew + " 2–9  " + stripMany + " 10 or more"

// plainStripWidth is the strip's width in plain output, in cells.
const plainStripWidth = 50

// plainSlowest is how many of the slowest pods plain output names for each gap.
const plainSlowest = 3

// Workload prints a workload's summary after the pods' (held lines first, as Flush): for each
// named gap, how many pods have it, its min, p50, p90 and max with their bounds, the pods'
// values on a strip, and the slowest pods.
func (p *Plain) Workload(sum timeline.Summary) {
	p.Flush()
	if len(sum.Gaps) == 0 {
		p.printf("summary of %s: no named gap\n", podsText(sum.Pods))
		return
	}
	p.printf("summary of %s: each named gap over the pods that have it; min, p50, p90, max of the estimates [between the same rank of the pods' bounds]; strip %s\n",
		podsText(sum.Pods), stripLegend)
	for _, g := range sum.Gaps {
		if g.Count == 1 {
			p.printf("  %s: 1 pod, %s (%s)\n", present.Safe(g.Name), boundsText(g.Max), present.Safe(g.Values[0].Pod))
			continue
		}
		p.printf("  %s: %s\n", present.Safe(g.Name), podsText(g.Count))
		p.printf("    min %s  p50 %s  p90 %s  max %s\n", boundsText(g.Min), boundsText(g.P50), boundsText(g.P90), boundsText(g.Max))
		if g.Min.Value != g.Max.Value {
			p.printf("    %s\n", stripText(g, plainStripWidth))
		}
		var slow []string
		for _, v := range g.Values[:min(len(g.Values), plainSlowest)] {
			slow = append(slow, present.Safe(v.Pod)+" "+boundsText(v.Span))
		}
		p.printf("    slowest: %s\n", strings.Join(slow, ", "))
	}
}
