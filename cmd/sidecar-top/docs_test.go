package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// repoRoot is the repository's root, seen from this package's directory.
const repoRoot = "../.."

// TestDocs holds README.md and docs/*.md to what sidecar-top does.
//
// A fenced block whose info string is `console` shows commands, each on a line `$ COMMAND`
// (continued on the next line after a trailing backslash, a `#` starting a comment), each
// followed by what it prints, standard output and standard error as a terminal shows them. The
// test runs each in turn in one directory per document, in which recordings/ is the
// repository's, and compares. A line `...` in an output stands for any number of lines: before
// the first shown line, between two, or after the last. The commands it runs are sidecar-top
// itself (in-process, as main runs it, without a terminal or a kubeconfig), `echo $?` (the last
// exit status), `head -n N FILE` and `go run ./bench/synth pods|restarts N OUT`. With -update
// (make readme) it writes each output it finds changed, keeping the cuts where they were.
//
// A block whose info string is `console cluster` shows commands that need a cluster (a live
// target, record): they are parsed as sidecar-top parses them, and not run, so an unknown
// subcommand or flag, a flag without its value or a target sidecar-top refuses fails. Such a
// block shows no output, since none is checked. So is every `sidecar-top ...` in an inline code
// span of the prose. A shell block (sh, bash, ...) must not show a sidecar-top command: each
// is checked.
func TestDocs(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	t.Setenv("NO_COLOR", "")
	// A replay of a file sets the process's memory limit and collector (boundHeap): in a test
	// process that would outlive the command. The output is the same either way.
	t.Setenv("GOMEMLIMIT", "off")
	for _, path := range docFiles(t) {
		name := filepath.Base(path)
		if filepath.Base(filepath.Dir(path)) == "docs" {
			name = "docs/" + name
		}
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			changed := checkDoc(t, name, lines)
			if changed != nil && *update {
				if err := os.WriteFile(path, []byte(strings.Join(changed, "\n")), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// docFiles are README.md and every docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(docs)
	files := append([]string{filepath.Join(repoRoot, "README.md")}, docs...)
	for i, f := range files { // absolute: checkDoc works in a directory of its own
		if files[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// checkDoc checks one document's blocks and code spans. It returns the document with each
// changed output written in, or nil when nothing changed.
func checkDoc(t *testing.T, name string, lines []string) []string {
	abs, err := filepath.Abs(filepath.Join(repoRoot, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(abs, filepath.Join(dir, "recordings")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	sess := &docSession{}
	fs := fences(lines)
	// Commands run in the order the document shows them, since one may read what another wrote;
	// changed blocks are written in from the last, so that the earlier ones' line numbers hold.
	type rewrite struct {
		f    fence
		body []string
	}
	var rewrites []rewrite
	for _, f := range fs {
		where := fmt.Sprintf("%s:%d", name, f.start)
		switch f.info {
		case "console":
			if body, same := runConsoleBlock(t, sess, where, f); !same {
				rewrites = append(rewrites, rewrite{f, body})
			}
		case "console cluster":
			checkClusterBlock(t, where, f)
		case "sh", "shell", "bash", "zsh":
			checkShellBlock(t, name, f)
		}
	}
	checkCodeSpans(t, name, lines, fs)
	if len(rewrites) == 0 {
		return nil
	}
	out := slices.Clone(lines)
	for i := len(rewrites) - 1; i >= 0; i-- {
		r := rewrites[i]
		body := make([]string, len(r.body))
		for j, l := range r.body {
			body[j] = strings.TrimRight(r.f.indent+l, " ")
		}
		out = slices.Replace(out, r.f.start, r.f.end, body...)
	}
	return out
}

// checkShellBlock refuses a sidecar-top command in a shell block, where nothing checks it.
func checkShellBlock(t *testing.T, name string, f fence) {
	t.Helper()
	for j, l := range f.body {
		if strings.HasPrefix(l, "sidecar-top ") || strings.HasPrefix(l, "$ sidecar-top ") {
			t.Errorf("%s:%d: a sidecar-top command in a ```%s block, where nothing checks it: "+
				"show it in a console block (console cluster when it needs one)", name, f.start+j+1, f.info)
		}
	}
}

// fence is a fenced code block: its info string and the lines between its fences, lines[start:end]
// of the document, with the opening fence's indentation taken off.
type fence struct {
	info       string
	indent     string
	start, end int
	body       []string
}

var fenceRE = regexp.MustCompile("^( *)(```+|~~~+)\\s*(.*)$")

// fences finds the document's fenced code blocks; a block is closed by a fence of the same
// character at least as long as the one that opened it.
func fences(lines []string) []fence {
	var out []fence
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		f := fence{info: strings.Join(strings.Fields(m[3]), " "), indent: m[1], start: i + 1}
		marker := m[2]
		for i++; i < len(lines); i++ {
			rest := strings.TrimLeft(lines[i], " ")
			if strings.HasPrefix(rest, marker) && strings.Trim(rest, marker[:1]+" ") == "" {
				break
			}
			f.body = append(f.body, strings.TrimPrefix(lines[i], f.indent))
		}
		f.end = i
		out = append(out, f)
	}
	return out
}

// step is a command of a console block and the output the block shows for it.
type step struct {
	line    int // the command's first line, in the block's body
	command string
	want    []string
}

// steps reads a console block's commands and outputs.
func steps(body []string) ([]step, error) {
	var out []step
	for i := 0; i < len(body); i++ {
		l := body[i]
		cmd, ok := strings.CutPrefix(l, "$ ")
		if !ok {
			if len(out) == 0 {
				return nil, fmt.Errorf("line %d: a console block begins with a line `$ COMMAND`", i+1)
			}
			out[len(out)-1].want = append(out[len(out)-1].want, l)
			continue
		}
		s := step{line: i}
		for strings.HasSuffix(cmd, `\`) && i+1 < len(body) {
			i++
			cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(body[i])
		}
		s.command = cmd
		out = append(out, s)
	}
	return out, nil
}

// runConsoleBlock runs the block's commands and compares their outputs with the block's. It
// returns the block's body with the outputs found now, and whether it is as it was.
func runConsoleBlock(t *testing.T, sess *docSession, where string, f fence) ([]string, bool) {
	t.Helper()
	ss, err := steps(f.body)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return f.body, true
	}
	same := true
	var body []string
	for i, s := range ss {
		end := len(f.body)
		if i+1 < len(ss) {
			end = ss[i+1].line
		}
		body = append(body, f.body[s.line:end-len(s.want)]...)
		got, err := sess.run(s.command)
		if err != nil {
			t.Errorf("%s: $ %s: %v", where, s.command, err)
			body = append(body, s.want...)
			continue
		}
		want := trimLines(s.want)
		if matchOutput(want, got) {
			body = append(body, s.want...)
			continue
		}
		same = false
		if !*update {
			t.Errorf("%s: $ %s\nprints what the document does not show (run make readme to rewrite it); %s",
				where, s.command, outputDiff(want, got))
			body = append(body, s.want...)
			continue
		}
		now := reshape(want, got)
		if !matchOutput(now, got) {
			t.Errorf("%s: $ %s: cannot keep the output's cuts; rewrite them by hand: the output is\n%s",
				where, s.command, strings.Join(got, "\n"))
		}
		body = append(body, now...)
		if n := len(s.want) - len(want); n > 0 {
			body = append(body, s.want[len(want):]...) // blank lines kept after the output
		}
	}
	return body, same
}

// trimLines is lines without trailing blanks, and without the blank lines at its end.
func trimLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " \t")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// outputDiff says how got differs from want: a diff when want shows the whole output, else
// both (a cut output cannot be diffed line by line).
func outputDiff(want, got []string) string {
	if !slices.Contains(want, "...") {
		return "(-document +now):\n" + cmp.Diff(want, got)
	}
	if len(got) > 200 {
		got = append(got[:200:200], "[... cut here]")
	}
	return "the document shows\n" + strings.Join(want, "\n") + "\nand it prints\n" + strings.Join(got, "\n")
}
