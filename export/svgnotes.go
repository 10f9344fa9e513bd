package export

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The notes under the picture's lanes: each pod's named gaps with their lengths, then its
// findings, then the jobs' own findings, as the view lists them under its table. A workload of
// many pods lists the first svgNotePods; the Markdown report has every one.

// svgNotePods is the most pods whose gaps and findings a picture lists.
const svgNotePods = 8

// svgNoteRow is the height of a line of the notes.
const svgNoteRow = 17.0

// notes writes the notes.
func (d *svgDrawing) notes() {
	listed, left := 0, 0
	d.y += 12 // under the legend's last line
	for _, p := range d.in.Snapshot.Pods.Items() {
		if len(p.Gaps) == 0 && len(p.Findings()) == 0 {
			continue
		}
		if listed == svgNotePods {
			left++
			continue
		}
		listed++
		d.y += 6
		if d.in.Snapshot.Pods.Len() > 1 {
			d.text(svgPad, d.y, d.pal.text, "pod "+p.Name, ` font-weight="bold"`)
			d.y += svgNoteRow
		}
		d.gaps(p.Gaps)
		for i, fs := 0, p.Findings(); i < len(fs); i++ {
			d.finding(&fs[i], p.Name)
		}
	}
	if left > 0 {
		d.text(svgPad, d.y, d.pal.muted, fmt.Sprintf("+%d more pods' gaps and findings: export -o markdown lists them all", left), "")
		d.y += svgNoteRow
	}
	for _, j := range d.in.Snapshot.Jobs {
		for _, f := range d.in.Snapshot.JobFindings(j) {
			if f.Pod == "" { // a pod's are listed under it
				d.finding(&f, "")
			}
		}
	}
}

// gaps writes named gaps, a line each: the name, then its length in a column.
func (d *svgDrawing) gaps(gs []timeline.Gap) {
	nameW := 0
	for _, g := range gs {
		nameW = max(nameW, utf8.RuneCountInString(safe(g.Name)))
	}
	for _, g := range gs {
		d.text(svgPad, d.y, d.pal.muted, "Δ "+g.Name, "")
		d.text(svgPad+float64(nameW+4)*svgCharW, d.y, d.pal.text, textfmt.Gap(g.Span), "")
		d.y += svgNoteRow
	}
}

// finding writes finding f, listed under pod within, wrapped to the picture's width: "!" for a
// warning, "i" for information, in the view's colours.
func (d *svgDrawing) finding(f *timeline.Finding, within string) {
	mark, color := "i", present.DarkHex(present.Cyan)
	if f.Severity == timeline.SeverityWarning {
		mark, color = "!", present.DarkHex(present.Orange)
	}
	width := max(int((d.width-2*svgPad)/svgCharW)-2, 20)
	lines := strings.Split(ansi.Wrap(safe(f.Line(within)), width, " "), "\n")
	for i, l := range lines {
		if i == 0 {
			d.text(svgPad, d.y, color, mark, ` font-weight="bold"`)
		}
		d.text(svgPad+2*svgCharW, d.y, d.pal.text, l, "")
		d.y += svgNoteRow
	}
}
