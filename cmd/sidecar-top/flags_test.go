package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/ui"
)

// errText is err's message, or "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestReplayFlags: replay's and demo's flags, as the command line gives them, to the options
// they set, or to the one-line error.
func TestReplayFlags(t *testing.T) {
	type opts struct {
		Output    string
		Pretty    bool
		Speed     float64
		Paced     bool
		IdleLimit time.Duration
		Err       string
	}
	speedErr := `want a factor from 0.1 to 1000, such as 1, 2 or 10, or max`
	tests := []struct {
		args []string
		want opts
	}{
		{nil, opts{Speed: 1, IdleLimit: 5 * time.Second}},
		{[]string{"-o", "json", "--pretty"}, opts{Output: "json", Pretty: true, Speed: 1, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "2"}, opts{Speed: 2, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "10x"}, opts{Speed: 10, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "2.5×"}, opts{Speed: 2.5, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", " MAX "}, opts{Speed: play.SpeedMax, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "0.1"}, opts{Speed: 0.1, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "1000"}, opts{Speed: 1000, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "1e3"}, opts{Speed: 1000, Paced: true, IdleLimit: 5 * time.Second}},
		{[]string{"--speed", "NaN"}, opts{Err: `--speed "NaN": ` + speedErr}},
		{[]string{"--speed", "nan"}, opts{Err: `--speed "nan": ` + speedErr}},
		{[]string{"--speed", "Inf"}, opts{Err: `--speed "Inf": ` + speedErr}},
		{[]string{"--speed", "+inf"}, opts{Err: `--speed "+inf": ` + speedErr}},
		{[]string{"--speed", "0"}, opts{Err: `--speed "0": ` + speedErr}},
		{[]string{"--speed", "-1"}, opts{Err: `--speed "-1": ` + speedErr}},
		{[]string{"--speed", "1e-300"}, opts{Err: `--speed "1e-300": ` + speedErr}},
		{[]string{"--speed", "0.09"}, opts{Err: `--speed "0.09": ` + speedErr}},
		{[]string{"--speed", "1001"}, opts{Err: `--speed "1001": ` + speedErr}},
		{[]string{"--speed", "1e400"}, opts{Err: `--speed "1e400": ` + speedErr}},
		{[]string{"--speed", "fast"}, opts{Err: `--speed "fast": ` + speedErr}},
		{[]string{"--speed", ""}, opts{Err: `--speed "": ` + speedErr}},
		{[]string{"--idle-limit", "0"}, opts{Speed: 1}},
		{[]string{"--idle-limit", "1m30s"}, opts{Speed: 1, IdleLimit: 90 * time.Second}},
		{[]string{"--idle-limit", "-1s"}, opts{Err: "--idle-limit cannot be negative (0 plays every pause as recorded)"}},
		{[]string{"-o", "yaml"}, opts{Output: "yaml", Speed: 1, IdleLimit: 5 * time.Second}},
		{[]string{"-o", "xml"}, opts{Err: `-o "xml": want json or yaml`}},
		{[]string{"-o", "yaml", "--pretty"}, opts{Err: "--pretty indents -o json: give -o json, or drop --pretty"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			o := &replayOptions{}
			cmd := &cobra.Command{}
			o.addFlags(cmd.Flags())
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			_, err := o.validate(cmd.Flags(), &viewOptions{color: "auto"}, false)
			got := opts{Err: errText(err)}
			if err == nil {
				got = opts{o.output, o.pretty, o.speed, o.paced, o.idleLimit, ""}
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

// TestRecordFlags: record's flags to the options they set, or to the one-line error. -o is the
// format; the old form, -o FILE, is refused with the flag that names the file now.
func TestRecordFlags(t *testing.T) {
	type opts struct {
		Path, Where, Format string
		Until               untilCondition
		Timeout, Linger     time.Duration
		Err                 string
	}
	oldForm := func(v string) string {
		return `-o "` + v + `": -o is the output format (json or yaml); record's file is --output-file ` + v
	}
	tests := []struct {
		args []string
		want opts
	}{
		{[]string{"--output-file", "a.jsonl"}, opts{Path: "a.jsonl", Where: "a.jsonl", Linger: 2 * time.Second}},
		{[]string{"--output-file", "a.jsonl", "-o", "json"}, opts{Path: "a.jsonl", Where: "a.jsonl", Format: "json", Linger: 2 * time.Second}},
		{[]string{"-o", "yaml", "--output-file", "a.jsonl"}, opts{Path: "a.jsonl", Where: "a.jsonl", Format: "yaml", Linger: 2 * time.Second}},
		{[]string{"--output=json", "--output-file=a.jsonl", "-o", "json"}, opts{Path: "a.jsonl", Where: "a.jsonl", Format: "json", Linger: 2 * time.Second}},
		{[]string{"--output-file", "-"}, opts{Path: "-", Where: "standard output", Linger: 2 * time.Second}},
		{[]string{"--output-file", "-", "--until", "deleted", "--timeout", "2s", "--linger", "0"}, opts{Path: "-", Where: "standard output", Until: untilDeleted, Timeout: 2 * time.Second}},
		{[]string{"--output-file", "a.jsonl", "--until", "complete", "--timeout", "10m"}, opts{Path: "a.jsonl", Where: "a.jsonl", Until: untilComplete, Timeout: 10 * time.Minute, Linger: 2 * time.Second}},
		{[]string{"--output-file", "a.jsonl", "--until", "ready"}, opts{Path: "a.jsonl", Where: "a.jsonl", Until: untilReady, Linger: 2 * time.Second}},
		{[]string{"--output-file", "-", "-o", "json"}, opts{Err: "--output-file - writes the recording to standard output, so -o json cannot print there too: record to a file, then replay it with -o json"}},
		{[]string{"-o", "yaml", "--output-file", "-"}, opts{Err: "--output-file - writes the recording to standard output, so -o yaml cannot print there too: record to a file, then replay it with -o yaml"}},
		{[]string{"-o", "json"}, opts{Err: "record needs --output-file FILE: where to write the recording (- for standard output)"}},
		{nil, opts{Err: "record needs --output-file FILE: where to write the recording (- for standard output)"}},
		{[]string{"-o", "json", "-o", "yaml", "--output-file", "a"}, opts{Err: "-o: one output format at a time (json and yaml)"}},
		// The old form, refused in one line that names the new flag.
		{[]string{"-o", "a.jsonl"}, opts{Err: oldForm("a.jsonl")}},
		{[]string{"-o", "-"}, opts{Err: oldForm("-")}},
		{[]string{"-o", "a.jsonl", "-o", "json"}, opts{Err: oldForm("a.jsonl")}},
		{[]string{"-o", "json", "--output", "a.jsonl.gz"}, opts{Err: oldForm("a.jsonl.gz")}},
		{[]string{"--output-file", "a", "--until", "never"}, opts{Err: `--until "never": want complete, deleted or ready`}},
		{[]string{"--output-file", "a", "--timeout", "-1s"}, opts{Err: "--timeout and --linger cannot be negative"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := &recordOptions{}
			cmd := &cobra.Command{}
			r.addFlags(cmd.Flags())
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			err := r.validate()
			got := opts{Err: errText(err)}
			if err == nil {
				got = opts{r.path, r.where(), r.format, r.until, r.timeout, r.linger, ""}
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

// TestOutputOf: where a watch shows itself, by terminal, --plain, record's --output-file and -o.
func TestOutputOf(t *testing.T) {
	var out, errOut bytes.Buffer
	s := streams{IOStreams: genericiooptions.IOStreams{Out: &out, ErrOut: &errOut}}
	tty := s
	tty.terminal = true
	rec := func(path string, o ...string) *recordOptions {
		r := &recordOptions{path: path, outputs: o}
		if err := r.validate(); err != nil {
			t.Fatal(err)
		}
		return r
	}
	name := map[any]string{&out: "stdout", &errOut: "stderr", nil: "none"}
	tests := []struct {
		name  string
		s     streams
		plain bool
		rec   *recordOptions
		want  string
	}{
		{"watch on a terminal", tty, false, nil, "view"},
		{"watch --plain on a terminal", tty, true, nil, "plain to stdout"},
		{"watch to a pipe", s, false, nil, "plain to stdout"},
		{"record on a terminal", tty, false, rec("a"), "view"},
		{"record to a pipe", s, false, rec("a"), "plain to stdout"},
		{"record -o json on a terminal", tty, false, rec("a", "json"), "view"},
		{"record -o json to a pipe", s, false, rec("a", "json"), "plain to none"},
		{"record -o yaml to a pipe", s, false, rec("a", "yaml"), "plain to none"},
		{"record --output-file - on a terminal", tty, false, rec("-"), "plain to stderr"},
		{"record --output-file - to a pipe", s, false, rec("-"), "plain to stderr"},
		{"record --output-file - --plain", tty, true, rec("-"), "plain to stderr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := outputOf(tt.s, &viewOptions{plain: tt.plain}, tt.rec)
			got := "view"
			if !o.view {
				got = "plain to " + name[o.plain]
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestIdleText(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{5*time.Second + 260*time.Millisecond, "5.3s"},
		{59 * time.Second, "59s"},
		{150 * time.Second, "2m30s"},
		{2 * time.Minute, "2m"},
		{time.Hour, "1h"},
		{time.Hour + 30*time.Second, "1h0m30s"},
		{47 * time.Hour, "47h"},
		{49 * time.Hour, "2d"},
		{time.Duration(math.MaxInt64), "106751d"},
	}
	for _, tt := range tests {
		if got := ui.IdleDur(tt.d); got != tt.want {
			t.Errorf("ui.IdleDur(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestWaited(t *testing.T) {
	tests := []struct{ d, want time.Duration }{
		{999*time.Millisecond + 990*time.Microsecond, time.Second},
		{1049 * time.Millisecond, time.Second},
		{1549 * time.Millisecond, 1500 * time.Millisecond},
		{10*time.Second + 70*time.Millisecond, 10 * time.Second},
		{14*time.Second + 600*time.Millisecond, 15 * time.Second},
	}
	for _, tt := range tests {
		if got := waited(tt.d); got != tt.want {
			t.Errorf("waited(%v) = %v, want %v", tt.d, got, tt.want)
		}
	}
}
