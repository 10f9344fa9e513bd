package recfile

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
)

// allocated is how many bytes f allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// refusalSlack is what refusing an over-long line may allocate beyond the limit: a chunk being
// filled (lineChunk) and the reader's buffer (batchBytes), with room for the rest.
const refusalSlack = 2 << 20

// TestRefusalCost: refusing an over-long line costs what the limit allows, MaxLineBytes and a
// chunk, never the 3-5 times that a buffer grown by append (1.25 times at a time) had cost: an
// endless line as line 1 (NewReader) and as line 3, read by the pipeline's goroutine.
func TestRefusalCost(t *testing.T) {
	var err error
	n := allocated(func() { _, err = NewReader(&countingReader{r: zeroReader{}}, "/dev/zero", Options{}) })
	if err == nil || !strings.Contains(err.Error(), "line is longer than 64 MiB") {
		t.Fatalf("NewReader(/dev/zero) error = %v, want line is longer than 64 MiB", err)
	}
	t.Logf("refusing an endless line 1 allocated %.1f MiB (the limit is %d MiB)", float64(n)/(1<<20), MaxLineBytes>>20)
	if n > MaxLineBytes+refusalSlack {
		t.Errorf("refusing an endless line 1 allocated %d MiB, want at most the limit, %d MiB, and %d MiB", n>>20, MaxLineBytes>>20, refusalSlack>>20)
	}

	in := io.MultiReader(strings.NewReader(headerLine+"\n"+podLine+"\n"), zeroReader{})
	err = nil
	n = allocated(func() {
		rd, err2 := newReader(in, "rec.jsonl", Options{}, 2, MaxLineBytes)
		if err2 != nil {
			t.Fatal(err2)
		}
		for err == nil {
			_, err = rd.Next(context.Background())
		}
	})
	if err == nil || !strings.Contains(err.Error(), "rec.jsonl:3: line is longer than 64 MiB") {
		t.Fatalf("error = %v, want rec.jsonl:3: line is longer than 64 MiB", err)
	}
	t.Logf("refusing an endless line 3 allocated %.1f MiB", float64(n)/(1<<20))
	if n > MaxLineBytes+refusalSlack {
		t.Errorf("refusing an endless line 3 allocated %d MiB, want at most the limit, %d MiB, and %d MiB", n>>20, MaxLineBytes>>20, refusalSlack>>20)
	}
}

// TestReadLongLines: lines longer than the reader's buffer, read in chunks, come out whole: of a
// few chunks, of exactly the limit, ending in CR LF, and last without a newline; one byte over
// the limit is refused.
func TestReadLongLines(t *testing.T) {
	line := func(n int) string {
		head := `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","annotations":{"a":"`
		tail := `"}}}}`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	const limit = 3*lineChunk + 12345
	bothModes(t, func(t *testing.T, workers int) {
		for _, tc := range []struct {
			name, in string
			items    int
			err      string
		}{
			{"three chunks", line(3*lineChunk-7) + "\n" + podLine + "\n", 2, ""},
			{"exactly the limit", line(limit) + "\n", 1, ""},
			{"CR LF", line(2*lineChunk) + "\r\n" + podLine + "\r\n", 2, ""},
			{"last, no newline", podLine + "\n" + line(lineChunk+5), 2, ""},
			{"one byte over", podLine + "\n" + line(limit+1) + "\n", 1, "rec.jsonl:3: line is longer than 3158073 bytes"},
			{"over, last", podLine + "\n" + line(limit+1), 1, "rec.jsonl:3: line is longer than 3158073 bytes"},
		} {
			_, items, rd, err := readAll(strings.NewReader(headerLine+"\n"+tc.in), workers, limit)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("%s: %v", tc.name, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%s: error %v, want %s", tc.name, err, tc.err)
			case tc.err == "" && (len(items) != tc.items || rd.Truncated):
				t.Errorf("%s: %d items (truncated %v), want %d", tc.name, len(items), rd.Truncated, tc.items)
			}
		}
	})
}

// TestCROnlyLines: a file whose lines end in a carriage return alone reads as one line; it is
// said to be, wherever that one line ends: without a newline (else taken for a recorder stopped
// mid-write), with one (else a malformed line), or past the limit (else a line too long). Lines
// ending in CR LF read as they are.
func TestCROnlyLines(t *testing.T) {
	cr := headerLine + "\r" + podLine + "\r" + podLine + "\r"
	want := "the lines end in a carriage return alone (CR), not a newline (LF)"
	bothModes(t, func(t *testing.T, workers int) {
		for name, in := range map[string]string{
			"no newline":   cr,
			"newline last": cr + "\n",
			"items only":   podLine + "\r" + podLine + "\r",
			"after a line": headerLine + "\n" + podLine + "\n" + podLine + "\r" + podLine + "\r",
			"too long":     cr + strings.Repeat(podLine+"\r", 2*lineChunk/len(podLine)),
		} {
			_, _, rd, err := readAll(strings.NewReader(in), workers, lineChunk)
			if err == nil || !strings.Contains(err.Error(), want) {
				truncated := rd != nil && rd.Truncated
				t.Errorf("%s: error %v (truncated %v), want %q", name, err, truncated, want)
			}
		}
		crlf := strings.ReplaceAll(cr, "\r", "\r\n")
		if _, items, rd, err := readAll(strings.NewReader(crlf), workers, MaxLineBytes); err != nil || len(items) != 2 || rd.Truncated {
			t.Errorf("CR LF: %d items, %v; want 2", len(items), err)
		}
	})
}

// TestLineErrorsSayWhat: a time that is the zero time is not said to be missing; an error in a
// pod's spec (decoded through the spec cache) or in an object whose kind the bytes did not give
// (decoded on its own) names the whole JSON pointer from the line.
func TestLineErrorsSayWhat(t *testing.T) {
	obj := `"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}`
	for _, tc := range []struct{ line, want string }{
		{`{"time":"0001-01-01T00:00:00Z","type":"ADDED",` + obj + `}`, `rec.jsonl:2: malformed line: "time" is "0001-01-01T00:00:00Z", the zero time`},
		{`{"type":"ADDED",` + obj + `}`, `rec.jsonl:2: malformed line: no "time"`},
		{`{"time":null,"type":"ADDED",` + obj + `}`, `rec.jsonl:2: malformed line: no "time"`},
		{`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"},"spec":{"initContainers":[{"name":"a","restartPolicy":5}]}}}`,
			`within "/object/spec/initContainers/0/restartPolicy"`},
		{`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"P\u006fd","apiVersion":"v1","metadata":{"name":5}}}`,
			`within "/object/metadata/name"`},
	} {
		for _, objects := range []Objects{Whole, NoObjects} {
			bothModes(t, func(t *testing.T, workers int) {
				rd, err := newReader(strings.NewReader(headerLine+"\n"+tc.line+"\n"), "rec.jsonl", Options{Objects: objects}, workers, MaxLineBytes)
				if err != nil {
					t.Fatal(err)
				}
				_, err = rd.Next(context.Background())
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("objects %v: %s: error %v, want %s", objects, tc.line, err, tc.want)
				}
			})
		}
	}
}

// TestProgress: Progress counts the bytes of the lines read, the header's included, up to the
// whole file; a line refused is not counted.
func TestProgress(t *testing.T) {
	good := headerLine + "\n" + podLine + "\n" + podLine + "\n"
	bothModes(t, func(t *testing.T, workers int) {
		for _, tc := range []struct {
			in   string
			want int64
		}{
			{good, int64(len(good))},
			{good + strings.Repeat("x", 4096) + "\n" + podLine + "\n", int64(len(good))},
		} {
			var got int64
			progress := func(kept int64) { got = kept } // called on the goroutine that reads, done by the end
			rd, err := newReader(strings.NewReader(tc.in), "rec.jsonl", Options{Progress: progress}, workers, 1024)
			if err != nil {
				t.Fatal(err)
			}
			for err == nil {
				_, err = rd.Next(context.Background())
			}
			if got != tc.want {
				t.Errorf("Progress told %d bytes, want %d (%v)", got, tc.want, err)
			}
		}
	})
}
