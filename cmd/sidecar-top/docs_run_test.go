package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/watch"
)

// The commands of TestDocs: those of console blocks, run; those of console cluster blocks and
// code spans, parsed.

// docSession runs a document's commands, in the order it shows them, in the working directory.
type docSession struct {
	status int // the last command's exit status
}

// run runs one command line and returns what it printed.
func (s *docSession) run(line string) ([]string, error) {
	args, err := shellWords(line)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("no command")
	}
	var out string
	switch {
	case args[0] == "sidecar-top":
		s.status, out = runCombined(args[1:])
	case slices.Equal(args, []string{"echo", "$?"}):
		out = strconv.Itoa(s.status)
	case len(args) == 4 && args[0] == "head" && args[1] == "-n":
		out, err = head(args[3], args[2])
	case len(args) == 6 && slices.Equal(args[:3], []string{"go", "run", "./bench/synth"}):
		err = runSynth(args[3], args[4], args[5])
	default:
		return nil, fmt.Errorf("the test cannot run this command: it runs sidecar-top, echo $?, head -n and go run ./bench/synth")
	}
	if err != nil {
		return nil, err
	}
	return trimLines(strings.Split(out, "\n")), nil
}

// runCombined runs sidecar-top as main does, with standard output and standard error written
// into one buffer in the order they were written, as a terminal shows them.
func runCombined(args []string) (int, string) {
	var w lockedBuffer
	s := streams{IOStreams: genericiooptions.IOStreams{In: strings.NewReader(""), Out: &w, ErrOut: &w}}
	code := run(args, s)
	return code, w.String()
}

// lockedBuffer is a buffer that two goroutines may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// head is `head -n N FILE`.
func head(file, n string) (string, error) {
	k, err := strconv.Atoi(n)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(string(b), "\n")
	return strings.Join(lines[:min(k, len(lines))], ""), nil
}

// runSynth is `go run ./bench/synth KIND N OUT`, as bench/synth's main does it.
func runSynth(kind, n, out string) error {
	k, err := strconv.Atoi(n)
	if err != nil {
		return err
	}
	src, gen := "job-native-sidecar", synth.Pods
	if kind == "restarts" {
		src, gen = "crashing-sidecar", synth.Restarts
	} else if kind != "pods" {
		return fmt.Errorf("synth %q: want pods or restarts", kind)
	}
	b, err := recordings.Bytes(src)
	if err != nil {
		return err
	}
	rec, err := gen(k, b)
	if err != nil {
		return err
	}
	return os.WriteFile(out, rec, 0o644)
}

// checkClusterBlock parses each command of a console cluster block, which shows no output.
func checkClusterBlock(t *testing.T, where string, f fence) {
	t.Helper()
	ss, err := steps(f.body)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	for _, s := range ss {
		if len(trimLines(s.want)) > 0 {
			t.Errorf("%s: $ %s: a console cluster block shows no output, since nothing checks it", where, s.command)
		}
		args, err := shellWords(s.command)
		if err == nil && (len(args) == 0 || args[0] != "sidecar-top") {
			err = fmt.Errorf("a console cluster block shows sidecar-top commands only")
		}
		if err == nil {
			err = dryParse(args[1:])
		}
		if err != nil {
			t.Errorf("%s: $ %s: %v", where, s.command, err)
		}
	}
}

// codeSpanRE is an inline code span that holds a sidecar-top command.
var codeSpanRE = regexp.MustCompile("`(sidecar-top [^`]+)`")

// checkCodeSpans parses every sidecar-top command in the prose's code spans.
func checkCodeSpans(t *testing.T, name string, lines []string, fs []fence) {
	t.Helper()
	inFence := make([]bool, len(lines)+1)
	for _, f := range fs {
		for i := f.start - 1; i <= f.end && i < len(inFence); i++ {
			inFence[i] = true
		}
	}
	for i, l := range lines {
		if inFence[i] {
			continue
		}
		for _, m := range codeSpanRE.FindAllStringSubmatch(l, -1) {
			args, err := shellWords(m[1])
			if err == nil {
				err = dryParse(args[1:])
			}
			if err != nil {
				t.Errorf("%s:%d: `%s`: %v", name, i+1, m[1], err)
			}
		}
	}
}

// dryParse parses a command line as sidecar-top does, without running it: the subcommand, its
// flags and their values' types, its arguments' count, and the target or scope of a command
// that watches.
func dryParse(args []string) error {
	var discard bytes.Buffer
	root := newRootCommand(streams{IOStreams: genericiooptions.IOStreams{In: strings.NewReader(""), Out: &discard, ErrOut: &discard}})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd(args...)
	c, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	c.InitDefaultHelpFlag()
	c.InitDefaultVersionFlag()
	if err := c.ParseFlags(rest); err != nil {
		return err
	}
	if help, _ := c.Flags().GetBool("help"); help {
		return nil
	}
	pos := c.Flags().Args()
	if err := c.ValidateArgs(pos); err != nil {
		return err
	}
	if err := c.ValidateRequiredFlags(); err != nil {
		return err
	}
	if err := c.ValidateFlagGroups(); err != nil {
		return err
	}
	if c == root && len(pos) > 0 {
		if s := root.SuggestionsFor(pos[0]); len(s) > 0 {
			return fmt.Errorf("%q is no command of sidecar-top's (did you mean %s?)", pos[0], s[0])
		}
	}
	switch c.Name() {
	case "sidecar-top", "record", "check":
		if c.Name() == "check" && len(pos) == 1 && (pos[0] == "-" || strings.HasSuffix(pos[0], ".jsonl")) {
			return nil // a recording
		}
		sel, all := "", false
		if f := c.Flags().Lookup("selector"); f != nil {
			sel = f.Value.String()
		}
		if f := c.Flags().Lookup("all-namespaces"); f != nil {
			all = f.Value.String() == "true"
		}
		if _, err := watch.ParseScope(pos, sel, "default", all); err != nil {
			return err
		}
	}
	return nil
}
