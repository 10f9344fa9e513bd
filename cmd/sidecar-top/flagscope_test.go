package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reach is a row's want for a live command line that its flags let through to connecting: the
// server of unreachableConfig refuses the connection, and nothing else failed first.
const reach = "cannot reach the API server"

// flagRow is a command line, the flags of its command it stands for, and what it must do: exit 0
// when want is "", else fail with one line containing want (reach: at connecting, past every
// flag), writing nothing to standard output.
type flagRow struct {
	flags []string // the flags the row shows to work or to be refused, without --
	args  []string
	want  string
}

// TestEveryFlagWorksOrIsRefused: every flag of every subcommand either does something where it is
// accepted or is refused before any work, in one line with a non-zero exit status. A flag of the
// command tree that no row stands for fails the test: a new flag must say where it works. The
// kubectl flags (--context, --token, ...) of the live commands are TestKubeConfigFlags'; here they
// are refused by check with a recording.
func TestEveryFlagWorksOrIsRefused(t *testing.T) {
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	rec := recordingPath("startup-probe")
	cfg := unreachableConfig(t)
	marks := writeFile(t, "marks.yaml", "- {container: app, name: up, pattern: x}\n")
	otlp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer otlp.Close()
	live := func(cmd string, args ...string) []string {
		return append(strings.Fields(cmd+" --kubeconfig "+cfg), args...)
	}
	a := []string{"--assert", "sidecar.restarts == 0"}
	check := func(args ...string) []string { return append(append([]string{"check", rec}, a...), args...) }
	rows := []flagRow{
		// The watch.
		{[]string{"plain", "summary", "explain"}, live("", "pod/x", "--plain", "--summary", "--explain"), reach},
		{[]string{"color"}, live("", "pod/x", "--color", "never"), reach},
		{[]string{"container"}, live("", "web-.*", "-c", "app|proxy"), reach},
		{[]string{"container"}, live("", "pod/x", "-c", "app("), `-c "app(": a container's name, or a regular expression`},
		{[]string{"container"}, live("", "-A", "-c", "app"), "--summary, --explain and -c are for the view"},
		{[]string{"color"}, live("", "pod/x", "--color", "always"), "--color always: only the view has colour"},
		{[]string{"selector", "all-namespaces", "output", "sidecars-only"}, live("", "-A", "-l", "a=b", "-o", "jsonl", "--sidecars-only"), reach},
		{[]string{"output"}, live("", "pod/x", "-o", "json"), "-o json is for a scope"},
		{[]string{"sidecars-only"}, live("", "pod/x", "--sidecars-only"), "--sidecars-only is for a scope"},
		{[]string{"keep-finished"}, live("", "-n", "shop", "--keep-finished", "10m"), reach},
		{[]string{"keep-finished"}, live("", "pod/x", "--keep-finished", "10m"), "--keep-finished is for a scope"},
		{[]string{"keep-finished"}, live("", "-A", "--keep-finished", "-1s"), "--keep-finished -1s: want 0 or more"},
		{[]string{"summary"}, live("", "-A", "--summary"), "--summary, --explain and -c are for the view"},
		{[]string{"explain"}, live("", "-A", "-o", "json", "--explain"), "--summary, --explain and -c are for the view"},
		{[]string{"export"}, live("", "pod/x", "--export", "svg="+out("a.svg")), reach},
		{[]string{"export"}, live("", "pod/x", "--export", "svg=/nonexistent/a.svg"), "--export svg /nonexistent/a.svg: there is no directory /nonexistent"},
		{[]string{"logs", "logs-max-streams", "mark", "marks", "node-logs"},
			live("", "job/x", "--logs", "--logs-max-streams", "3", "--mark", "app:up=x", "--marks", marks, "--node-logs"), reach},
		// record.
		{[]string{"record output"}, live("record", "pod/x", "--output-file", out("r6.jsonl"), "-o", "yaml"), reach},
		{[]string{"record output"}, live("record", "pod/x", "--output-file", out("r7.jsonl"), "-o", "json", "--plain"), "--plain: with -o json, standard output is for the document"},
		{[]string{"record output"}, live("record", "pod/x", "-o", out("r8.jsonl")), "-o is the output format (json or yaml); record's file is --output-file"},
		{[]string{"record output-file", "record until", "record timeout", "record linger", "record record-log-text", "record plain", "record summary", "record explain"},
			live("record", "pod/x", "--output-file", out("r1.jsonl"), "--until", "ready", "--timeout", "1m", "--linger", "1s", "--record-log-text", "--plain", "--summary", "--explain"), reach},
		{[]string{"record color"}, live("record", "pod/x", "--output-file", out("r2.jsonl"), "--color", "always"), "--color always"},
		{[]string{"record container"}, live("record", "'^web'", "--output-file", out("r9.jsonl"), "-c", "app"), reach},
		{[]string{"record selector", "record all-namespaces"}, live("record", "-A", "-l", "a=b", "--output-file", out("r3.jsonl")), reach},
		{[]string{"record export", "record logs", "record logs-max-streams", "record mark", "record marks", "record node-logs"},
			live("record", "job/x", "--output-file", out("r4.jsonl"), "--export", "markdown="+out("r.md"), "--logs", "--logs-max-streams", "3", "--mark", "app:up=x", "--marks", marks, "--node-logs"), reach},
		{[]string{"record export"}, live("record", "pod/x", "--output-file", out("r5.jsonl"), "--export", "markdown="+dir), "is a directory"},
		// replay and demo.
		{[]string{"replay output", "replay pretty", "replay summary", "replay explain"}, []string{"replay", rec, "-o", "json", "--pretty", "--summary", "--explain"}, ""},
		{[]string{"replay output"}, []string{"replay", rec, "-o", "yaml"}, ""},
		{[]string{"replay pretty"}, []string{"replay", rec, "-o", "yaml", "--pretty"}, "--pretty indents -o json"},
		{[]string{"output"}, live("", "-A", "-o", "yaml"), reach},
		{[]string{"replay container"}, []string{"replay", rec, "-c", "app"}, ""},
		{[]string{"demo container"}, []string{"demo", "-o", "json", "-c", "^side"}, ""},
		{[]string{"replay speed", "replay idle-limit", "replay plain", "replay color"}, []string{"replay", rec, "--speed", "max", "--idle-limit", "1s", "--plain", "--color", "never"}, ""},
		{[]string{"replay pretty"}, []string{"replay", rec, "--pretty"}, "--pretty indents -o json"},
		{[]string{"replay speed"}, []string{"replay", rec, "-o", "json", "--speed", "2"}, "--speed is for playing the recording"},
		{[]string{"replay idle-limit"}, []string{"replay", rec, "-o", "json", "--idle-limit", "1s"}, "--idle-limit is for playing"},
		{[]string{"replay plain"}, []string{"replay", rec, "-o", "json", "--plain"}, "--plain is for playing"},
		{[]string{"replay color"}, []string{"replay", rec, "--color", "always"}, "--color always: only the view has colour"},
		{[]string{"demo output", "demo pretty", "demo summary", "demo explain"}, []string{"demo", "-o", "json", "--pretty", "--summary", "--explain"}, ""},
		{[]string{"demo speed", "demo idle-limit", "demo plain", "demo color"}, []string{"demo", "--speed", "max", "--idle-limit", "1s", "--plain", "--color", "never"}, ""},
		{[]string{"demo list"}, []string{"demo", "--list"}, ""},
		{[]string{"demo speed"}, []string{"demo", "-o", "json", "--speed", "2"}, "--speed is for playing"},
		{[]string{"demo color"}, []string{"demo", "--color", "always"}, "--color always"},
		// check.
		{[]string{"check assert", "check junit", "check allow-uncertain"}, check("--junit", out("c.xml"), "--allow-uncertain"), ""},
		{[]string{"check junit"}, check("--junit", "/nonexistent/x.xml"), "--junit /nonexistent/x.xml: there is no directory /nonexistent"},
		{[]string{"check until", "check timeout", "check linger", "check selector"},
			live("check", "-l", "a=b", "--assert", "app.restarts == 0", "--until", "complete", "--timeout", "1m", "--linger", "1s"), reach},
		{[]string{"check all-namespaces"}, live("check", "-A", "--assert", "app.restarts == 0"), reach},
		{[]string{"check until"}, check("--until", "complete"), "--until and --timeout are for a live target"},
		{[]string{"check all-namespaces"}, check("-A"), "--all-namespaces is for a live target"},
		// Not check's: it would do nothing with them.
		{nil, check("--export", "svg="+out("c.svg")), "unknown flag: --export"},
		{nil, check("--mark", "app:up=x"), "unknown flag: --mark"},
		{nil, check("--node-logs"), "unknown flag: --node-logs"},
		{nil, check("--color", "always"), "unknown flag: --color"},
		// diff and export.
		{[]string{"diff output", "diff by"}, []string{"diff", "-o", "json", "--by", "name", rec, rec}, ""},
		{[]string{"diff output"}, []string{"diff", "-o", "yaml", rec, rec}, ""},
		{nil, []string{"diff", rec, rec, "--plain"}, "unknown flag: --plain"},
		{[]string{"diff exit-code", "diff fail-on"}, []string{"diff", "--exit-code", "--fail-on", "sidecar started → app start > +20%", rec, rec}, ""},
		{[]string{"export output", "export output-file", "export pod"}, []string{"export", rec, "-o", "svg", "--output-file", out("e.svg"), "--pod", "sc-a"}, ""},
		{[]string{"export format"}, []string{"export", rec, "--format", "markdown"}, ""},
		{[]string{"export output-file"}, []string{"export", rec, "-o", "svg", "--output-file", "/nonexistent/e.svg"}, "there is no directory /nonexistent"},
		{[]string{"export output"}, []string{"export", rec, "-o", out("e.svg")}, "-o is the format (perfetto, markdown, svg or otlp); export's file is --output-file"},
		{[]string{"export otlp-endpoint", "export otlp-insecure", "export otlp-header", "export otlp-service-name", "export otlp-timeout"},
			[]string{"export", rec, "--format", "otlp", "--otlp-endpoint", otlp.URL, "--otlp-insecure", "--otlp-header", "a=b", "--otlp-service-name", "s", "--otlp-timeout", "5s"}, ""},
		{[]string{"export otlp-header"}, []string{"export", rec, "--format", "markdown", "--otlp-header", "a=b"}, "--otlp-header is for -o otlp"},
		{[]string{"export otlp-timeout"}, []string{"export", rec, "--format", "svg", "--otlp-timeout", "1s"}, "--otlp-timeout is for -o otlp"},
		{[]string{"export shift-to-now"}, []string{"export", rec, "--format", "otlp", "--otlp-endpoint", otlp.URL, "--shift-to-now"}, ""},
		{[]string{"export shift-to-now"}, []string{"export", rec, "--format", "svg", "--shift-to-now"}, "--shift-to-now is for -o otlp"},
		// The agent, which uses all its flags.
		{[]string{"agent namespace", "agent selector", "agent metrics-addr", "agent otlp-endpoint", "agent owner-names", "agent max-owners",
			"agent trace-after", "agent keep-finished", "agent leader-elect", "agent lease-name", "agent lease-namespace"},
			live("agent", "-n", "a", "-l", "a=b", "--metrics-addr", "127.0.0.1:0", "--otlp-endpoint", "http://127.0.0.1:1", "--owner-names=false", "--max-owners", "5",
				"--trace-after", "1m", "--keep-finished", "1m", "--leader-elect", "--lease-name", "l", "--lease-namespace", "n"), reach},
		{[]string{"agent all-namespaces"}, live("agent", "-A", "--metrics-addr", "127.0.0.1:0"), reach},
		// Flags of no use to version and completion.
		{nil, []string{"version", "--color", "always"}, "unknown flag: --color"},
		{nil, []string{"completion", "bash", "--plain"}, "unknown flag: --plain"},
	}
	// The kubectl flags of check: refused with a recording, whose cluster was chosen already.
	k := &kubeOptions{config: newKubeConfig()}
	k.addTargetFlags(pflag.NewFlagSet("", pflag.ContinueOnError))
	for _, name := range k.names {
		if name == "all-namespaces" || name == "selector" {
			continue // above: -l makes the argument a target
		}
		rows = append(rows, flagRow{[]string{"check " + name}, check("--" + name + "=" + sampleValue(k.flags.Lookup(name))), "--" + name + " is for a live target"})
	}
	covered := map[string]bool{}
	for _, r := range rows {
		for _, f := range r.flags {
			covered[f] = true
		}
		t.Run(strings.Join(r.args, " "), func(t *testing.T) { checkFlagRow(t, r) })
	}
	kubectl := pflag.NewFlagSet("", pflag.ContinueOnError)
	newKubeConfig().addFlags(kubectl)
	var names []string
	kubectl.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	for _, f := range commandFlags(newRootCommand(streams{}), names) {
		if !covered[f] {
			t.Errorf("no row says where %q works or that it is refused", f)
		}
	}
}

// checkFlagRow runs r's command line and holds it to r.want.
func checkFlagRow(t *testing.T, r flagRow) {
	code, stdout, stderr := runCmd(t, r.args...)
	if r.want == "" {
		if code != 0 {
			t.Errorf("exit %d, stderr %q; want 0", code, stderr)
		}
		return
	}
	last := strings.TrimSpace(stderr)
	if r.want == reach { // the agent logs JSON lines before its error
		last = last[strings.LastIndex(last, "\n")+1:]
	}
	if code == 0 || strings.Contains(last, "\n") || !strings.Contains(last, r.want) {
		t.Errorf("exit %d, stderr %q; want non-zero and one line containing %q", code, stderr, r.want)
	}
	if stdout != "" {
		t.Errorf("refused, yet it wrote %q to standard output", stdout)
	}
}

// commandFlags are "COMMAND FLAG" for every flag of every command under root ("FLAG" for root's
// own), but help, --version and the kubectl flags of live commands.
func commandFlags(root *cobra.Command, kubectl []string) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		prefix := strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), root.Name()), " ")
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" || f.Name == "version" || (slices.Contains(kubectl, f.Name) && prefix != "check") {
				return
			}
			if f.Name == "namespace" && prefix == "agent" {
				out = append(out, "agent namespace") // the agent's own: repeatable
				return
			}
			out = append(out, strings.TrimSpace(prefix+" "+f.Name))
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

// sampleValue is a value flag f parses.
func sampleValue(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "bool":
		return "true"
	case "int", "int64":
		return "1"
	case "duration":
		return "1s"
	}
	return filepath.Join(os.TempDir(), "x")
}
