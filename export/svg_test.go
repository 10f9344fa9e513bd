package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
)

// svgText is one <text> of a picture: where it is and what it says (its title left out).
type svgText struct {
	x, y   float64
	text   string
	middle bool // text-anchor="middle": x is its centre
}

// svgPicture reads a picture's size and its texts.
func svgPicture(t *testing.T, b []byte) (width float64, texts []svgText) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var open *svgText
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return width, texts
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "svg":
				width, _ = strconv.ParseFloat(attr["width"], 64)
			case "text":
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				open = &svgText{x: x, y: y, middle: attr["text-anchor"] == "middle"}
			case "title":
				if open != nil {
					texts, open = append(texts, *open), nil
				}
			}
		case xml.CharData:
			if open != nil {
				open.text += string(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" && open != nil {
				texts, open = append(texts, *open), nil
			}
		}
	}
}

// find is the first text that contains s.
func find(texts []svgText, s string) (svgText, bool) {
	for _, tx := range texts {
		if strings.Contains(tx.text, s) {
			return tx, true
		}
	}
	return svgText{}, false
}

// axisLabels are the y of each line of the time axis' labels ("+0s" and the ticks after it).
func axisLabels(texts []svgText) []float64 {
	var ys []float64
	for _, tx := range texts {
		if tx.text == "+0s" {
			ys = append(ys, tx.y)
		}
	}
	return ys
}

func svgOf(t *testing.T, in Input) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSVG(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSVGNotes: under the lanes the picture lists each pod's named gaps with their lengths and
// the findings, as the view's notes do, so that the picture alone explains a bug report; no
// text runs past the picture's width, however long (a finding is wrapped).
func TestSVGNotes(t *testing.T) {
	width, texts := svgPicture(t, svgOf(t, recording(t, "job-native-sidecar")))
	inside(t, width, texts)
	axis := axisLabels(texts)
	if len(axis) != 1 {
		t.Fatalf("a short picture has one axis, below: %v", axis)
	}
	for _, want := range []string{"sidecar SIGTERM → sidecar exit", "30.04s (28.54–30.54)", "did not exit on SIGTERM"} {
		tx, ok := find(texts, want)
		if !ok {
			t.Errorf("no %q in the picture", want)
			continue
		}
		if tx.y <= axis[0] {
			t.Errorf("%q at y %.0f, not under the lanes' axis (y %.0f)", want, tx.y, axis[0])
		}
	}
}

// TestSVGTallAxis: a picture taller than a screen has the time axis above its lanes as well as
// below.
func TestSVGTallAxis(t *testing.T) {
	f, err := recordings.Open("termination-order")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := io.ReadAll(f)
	f.Close()
	many, err := synth.Pods(12, src)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := source.Play(t.Context(), bytes.NewReader(many), "many.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	width, texts := svgPicture(t, svgOf(t, Input{Snapshot: rec.Final}))
	axis := axisLabels(texts)
	first, ok := find(texts, "pod ")
	if len(axis) != 2 || !ok || axis[0] >= first.y || axis[1] <= first.y {
		t.Errorf("the axis' labels at %v; want one line above the first pod (y %.0f) and one below", axis, first.y)
	}
	inside(t, width, texts)
}

// inside fails for each text that runs past width.
func inside(t *testing.T, width float64, texts []svgText) {
	t.Helper()
	for _, tx := range texts {
		if end := tx.x + float64(len([]rune(tx.text)))*svgCharW; !tx.middle && end > width {
			t.Errorf("%q ends at x %.0f, past the picture's width %.0f", tx.text, end, width)
		}
	}
}

// TestSVGWidthFollows: the picture is as wide as what it holds needs: a long pod name widens it
// rather than running off its edge, and a long container name is not cut while the axis keeps
// its length.
func TestSVGWidthFollows(t *testing.T) {
	f, err := recordings.Open("termination-order")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := io.ReadAll(f)
	f.Close()
	long := "sc-c-" + strings.Repeat("a-long-pod-name-", 8)
	src = bytes.ReplaceAll(src, []byte(`"sc-c"`), []byte(`"`+long+`"`))
	src = bytes.ReplaceAll(src, []byte(`"sidecar"`), []byte(`"sidecar-with-a-name-of-forty-characters"`))
	rec, err := source.Play(t.Context(), bytes.NewReader(src), "long.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	width, texts := svgPicture(t, svgOf(t, Input{Snapshot: rec.Final}))
	if width <= svgWidth {
		t.Errorf("width %.0f: not widened for a pod named %q", width, long)
	}
	inside(t, width, texts)
	if _, ok := find(texts, "sidecar-with-a-name-of-forty-characters"); !ok {
		t.Errorf("the container's name is cut")
	}
	short, _ := svgPicture(t, svgOf(t, recording(t, "termination-order")))
	if short != svgWidth {
		t.Errorf("width %.0f for short names, want %.0f", short, svgWidth)
	}
}
