package recfile

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchRecording is the input of the reader's benchmarks: the file named by
// SIDECAR_TOP_BENCH_RECORDING (e.g. one made by ../shared/tools/gen_recording.py), or else the
// item lines of the real recordings repeated to about 16 MB.
func benchRecording(b *testing.B) []byte {
	b.Helper()
	if path := os.Getenv("SIDECAR_TOP_BENCH_RECORDING"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	paths, err := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no recordings found: %v", err)
	}
	var items []byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		_, rest, _ := bytes.Cut(data, []byte("\n")) // drop the header
		items = append(items, rest...)
	}
	out := []byte(headerLine + "\n")
	for len(out) < 16<<20 {
		out = append(out, items...)
	}
	return out
}

// BenchmarkReader measures reading a recording observation by observation, as replay does:
// each line decoded into its object and translated by Observe, on the reader's workers; whole
// objects, slim ones (Slim), and none, slim ones decoded into one object per worker as replay
// reads them (NoObjects).
func BenchmarkReader(b *testing.B) {
	data := benchRecording(b)
	for _, mode := range []struct {
		name    string
		objects Objects
	}{{"whole", Whole}, {"slim", Slim}, {"none", NoObjects}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				rd, err := NewReader(bytes.NewReader(data), "bench.jsonl", Options{Objects: mode.objects})
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := rd.Next(context.Background())
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
