package ui

import (
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// viewCache remembers what the view derives from a pod that does not change while the pod does
// not: a snapshot shares every unchanged *timeline.Pod with the one before, so a frame whose pod
// did not change costs only drawing. It also remembers how each style of the lanes is written,
// which depends only on the Styles of the model. It is memoization only: the view stays a pure
// function of the snapshot, the size, now, the styles and the view state. A Model and its
// copies share one; the lock keeps it sound if a copy is drawn on another goroutine.
type viewCache struct {
	mu    sync.Mutex
	pods  map[*timeline.Pod]*podCache
	paint map[ink]*paint
	lines map[linesKey][]string // texts that depend only on the model's styles and keys, and a width
	// Findings wrapped to a width. A pod's findings are made once per pod version and never
	// change, so a finding's address names its text; a Job's pods keep theirs from frame to frame.
	findings map[findingKey][]string
}

// findingKey names a finding's lines: the finding, the pod it is shown within, the width.
type findingKey struct {
	x      *timeline.Finding
	within string
	width  int
}

// maxCachedFindings bounds the findings remembered: a view shows a screenful at a time.
const maxCachedFindings = 1024

// findingLines are the lines of the finding k names, made by make the first time (outside the
// lock: making them paints text, which asks the cache too).
func (c *viewCache) findingLines(k findingKey, make func() []string) []string {
	c.mu.Lock()
	l, ok := c.findings[k]
	c.mu.Unlock()
	if ok {
		return l
	}
	l = make()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.findings) >= maxCachedFindings {
		clear(c.findings)
	}
	c.findings[k] = l
	return l
}

// linesKey names a text the view draws the same for a given width: the legend, the short help.
type linesKey struct {
	what  uint8
	width int
}

const (
	linesLegend uint8 = iota
	linesShortHelp
)

// maxCachedLines bounds the texts remembered: a handful of widths are in use at a time.
const maxCachedLines = 64

// linesFor are the lines of text k, made by make the first time.
func (c *viewCache) linesFor(k linesKey, make func() []string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.lines[k]; ok {
		return l
	}
	if len(c.lines) >= maxCachedLines {
		clear(c.lines)
	}
	l := make()
	c.lines[k] = l
	return l
}

// maxCachedPods bounds the pods remembered: the view draws one pod a frame, and a live pod is
// a new pointer at every change, so old entries are dropped wholesale.
const maxCachedPods = 16

// podCache is what the view derives from one pod, whatever the window's size.
type podCache struct {
	lanes lanesWidths
	table *tableWidths               // computed when the table is first drawn
	times *podTimes                  // computed when first needed
	off   int                        // how many milestones times leaves off the axis
	segs  map[int][]timeline.Segment // by container index, when the lane is first drawn
	marks map[int][]markRef          // by container index (-1: the pod row), when first drawn
	logs  map[int][]logSpan          // by container index, when the lane is first drawn
}

func newViewCache() *viewCache {
	return &viewCache{pods: map[*timeline.Pod]*podCache{}, paint: map[ink]*paint{}, lines: map[linesKey][]string{},
		findings: map[findingKey][]string{}}
}

// pod is the cache entry of p, made on first use.
func (c *viewCache) pod(p *timeline.Pod) *podCache {
	if pc, ok := c.pods[p]; ok {
		return pc
	}
	if len(c.pods) >= maxCachedPods {
		clear(c.pods)
	}
	pc := &podCache{lanes: measureLanes(p)}
	c.pods[p] = pc
	return pc
}

// laneWidths are the widths of pod p's lane labels.
func (c *viewCache) laneWidths(p *timeline.Pod) lanesWidths {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pod(p).lanes
}

// tableWidths are the widths of pod p's milestone table's columns, over all its rows.
func (c *viewCache) tableWidths(p *timeline.Pod) tableWidths {
	c.mu.Lock()
	defer c.mu.Unlock()
	pc := c.pod(p)
	if pc.table == nil {
		tw := measureTable(p, *c.times(pc, p))
		pc.table = &tw
	}
	return *pc.table
}

// podTimes are the times pod p is placed by, and how many of its milestones are off the axis.
func (c *viewCache) podTimes(p *timeline.Pod) (podTimes, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pc := c.pod(p)
	return *c.times(pc, p), pc.off
}

func (c *viewCache) times(pc *podCache, p *timeline.Pod) *podTimes {
	if pc.times == nil {
		pt := newPodTimes(p)
		pc.times, pc.off = &pt, pt.offAxis(p)
	}
	return pc.times
}

// segments are the segments of pod p's container i, in time order.
func (c *viewCache) segments(p *timeline.Pod, i int) []timeline.Segment {
	c.mu.Lock()
	defer c.mu.Unlock()
	pc := c.pod(p)
	segs, ok := pc.segs[i]
	if !ok {
		if pc.segs == nil {
			pc.segs = map[int][]timeline.Segment{}
		}
		segs = p.Containers[i].Segments()
		pc.segs[i] = segs
	}
	return segs
}

// marks are the markers of pod p's container i (the pod row for -1), by time.
func (c *viewCache) marks(p *timeline.Pod, i int) []markRef {
	c.mu.Lock()
	defer c.mu.Unlock()
	pc := c.pod(p)
	ms, ok := pc.marks[i]
	if !ok {
		if pc.marks == nil {
			pc.marks = map[int][]markRef{}
		}
		ms = laneMarks(p, i)
		pc.marks[i] = ms
	}
	return ms
}

// paint is how text in one style is written: what goes before it and after, found once by
// rendering probes. A style whose output is not the text between fixed sequences (a width, a
// transform) is slow: lipgloss draws its text each time.
type paint struct {
	open, close string
	slow        bool
	style       lipgloss.Style
}

// paintOf is how to write text of ink k with styles st.
func (c *viewCache) paintOf(k ink, st *Styles) *paint {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.paint[k]; ok {
		return p
	}
	p := newPaint(k.style(st))
	c.paint[k] = p
	return p
}

func newPaint(s lipgloss.Style) *paint {
	const probe = "x"
	const probe2 = "x y·z"
	r := s.Render(probe)
	i := strings.Index(r, probe)
	if i < 0 {
		return &paint{slow: true, style: s}
	}
	p := &paint{open: r[:i], close: r[i+len(probe):], style: s}
	if s.Render(probe2) != p.open+probe2+p.close {
		return &paint{slow: true, style: s}
	}
	return p
}

// render is text in the paint's style.
func (p *paint) render(text string) string {
	switch {
	case p.slow:
		return p.style.Render(text)
	case p.open == "" && p.close == "":
		return text
	}
	return p.open + text + p.close
}
