package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "v0.1.0-dev"

// streams are the command's input and outputs, and whether the output is a terminal.
type streams struct {
	genericiooptions.IOStreams
	terminal    bool
	errTerminal bool   // standard error is a terminal: the one the view draws on, as a rule
	argv0       string // the name the program was run by: kubectl-sidecar_top as a kubectl plugin
}

func newStreams() streams {
	return streams{
		IOStreams:   genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		terminal:    term.IsTerminal(int(os.Stdout.Fd())) && term.IsTerminal(int(os.Stdin.Fd())),
		errTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		argv0:       os.Args[0],
	}
}

// displayName is the program's name in usage, help and examples: "kubectl sidecar-top" when it
// runs as the kubectl plugin kubectl-sidecar_top (kubectl runs a plugin by the name it found it
// under, and a plugin's "_" is a "-" of its command), else "sidecar-top".
func displayName(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if plugin, ok := strings.CutPrefix(base, "kubectl-"); ok {
		return "kubectl " + strings.ReplaceAll(plugin, "_", "-")
	}
	return "sidecar-top"
}

// nameCommands names root and its commands' examples by name, when it is not sidecar-top.
func nameCommands(root *cobra.Command, name string) {
	if name == root.Name() {
		return
	}
	root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: name}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Example = strings.ReplaceAll(c.Example, "  "+root.Name()+" ", "  "+name+" ")
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// open is the recording that name names, for replay, export, check and diff: standard input
// for "-" (left open), else the file, which done closes. The file is handed out as it is (an
// *os.File): replay reads its size.
func (s streams) open(name string) (r io.Reader, done func(), err error) {
	if name == "-" {
		return s.In, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// viewOptions are how results are shown, shared by every command.
type viewOptions struct {
	plain     bool
	color     string
	container string        // -c, as given
	lanes     *laneFilter   // -c, read by lanesFilter; nil for every lane
	report    reportOptions // --summary, --explain: of the commands that show a timeline
	verbose   *verbosity    // -v: client-go's log on standard error, which the view would tear
}

// kubeOptions are the standard kubectl flags and the target selector.
type kubeOptions struct {
	config   *kubeConfig
	selector string
	all      bool // -A: every namespace
	fleet    fleetFlags
	exports  exportFlag // --export: what record and live mode write from the final timeline
	logs     logFlags   // --logs, --mark, --node-logs, ...: logs as evidence (logs.go)
	flags    *pflag.FlagSet
	names    []string // the flags addFlags or addTargetFlags added, to refuse where they do nothing
}

func newRootCommand(s streams) *cobra.Command {
	view := &viewOptions{}
	kube := &kubeOptions{config: newConfigFlags()}
	cmd := &cobra.Command{
		Use:   "sidecar-top [flags] [POD | TYPE/NAME | -l SELECTOR | -A]",
		Short: "Watch how a pod's init containers, native sidecars and app containers start and stop",
		Long:  rootLong(),
		Example: `  sidecar-top -A
  sidecar-top -n shop
  sidecar-top -n shop checkout-7d9f
  sidecar-top -n shop 'web-.*' -c app
  sidecar-top -n batch job/nightly-export
  sidecar-top record -n shop pod/checkout --output-file checkout.jsonl --until deleted
  sidecar-top replay checkout.jsonl
  sidecar-top demo`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWatch(cmd.Context(), s, view, kube, args, nil)
		},
		ValidArgsFunction: kube.completeTarget,
	}
	cmd.SetIn(s.In)
	cmd.SetOut(s.Out)
	cmd.SetErr(s.ErrOut)
	cmd.SetContext(context.Background())
	// -v is kubectl's verbosity on every command, as kubectl has it; --version has no shorthand.
	view.verbose = addVerbosityFlags(cmd.PersistentFlags())
	cmd.PersistentPreRun = func(*cobra.Command, []string) { view.verbose.apply(s.ErrOut) }
	addViewFlags(cmd.Flags(), view)
	kube.addFlags(cmd.Flags())
	kube.fleet.addFlags(cmd.Flags()) // -o and --sidecars-only: the watch's, not record's or check's
	view.report.addFlags(cmd.Flags())
	cmd.AddCommand(newRecordCommand(s, view), newReplayCommand(s, view), newDemoCommand(s, view), newVersionCommand(s))
	cmd.AddCommand(newCheckCommand(s))
	cmd.AddCommand(newDiffCommand(s))
	cmd.AddCommand(newExportCommand(s))
	cmd.AddCommand(newAgentCommand(s))
	nameCommands(cmd, displayName(s.argv0))
	return cmd
}

// helpWidth is the width of the root command's TARGET paragraph, which fillWords fills.
const helpWidth = 94

// rootLong is the root command's help. Its TARGET paragraph names the kinds a TARGET may be
// from watch's table of them, and is filled to helpWidth, so that a kind added there is named
// here without a line to wrap by hand.
func rootLong() string {
	target := "TARGET is a pod name, " + watch.TargetKindUsage() + `; or a regular expression of
pod names, as stern takes ('web-.*': any argument with one of * + ? ^ $ [ ] ( ) { } | \ is
one; a name, or pod/NAME, is always that pod alone); or give -l SELECTOR. -c CONTAINER shows
only that container's lanes (a name, or a regular expression). The pod need not exist yet:
start sidecar-top before kubectl apply to see its whole life. A pod named as a command
(version, record, replay, demo, ...) is watched as pod/NAME. With no TARGET, every pod of the
namespace; with -A, of every namespace: a table of them all, one row per pod, from which enter
opens a pod's lanes.`
	return `sidecar-top shows, live, how the containers of a Kubernetes Pod start, become ready,
are signalled and exit, with native sidecars (init containers with restartPolicy: Always)
drawn as what they are: one lane per container, every milestone with its uncertainty, the
gaps between them, and findings in words.

` + fillWords(target, helpWidth)
}

// fillWords fills text's words into lines of at most width columns, a longer word alone on its
// line: help text whose words are not all known when it is written.
func fillWords(text string, width int) string {
	var b strings.Builder
	n := 0 // the columns of the line so far
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+utf8.RuneCountInString(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += utf8.RuneCountInString(w)
	}
	return b.String()
}

// newConfigFlags are kubectl's standard flags; each command that talks to a cluster has its own.
func newConfigFlags() *kubeConfig { return newKubeConfig() }

// addViewFlags adds --plain and --color, to the commands that can show the view (the watch,
// record, replay, demo) and to no other: elsewhere they would change nothing.
func addViewFlags(fs *pflag.FlagSet, v *viewOptions) {
	fs.BoolVar(&v.plain, "plain", false, "print plain lines, one per milestone, even on a terminal")
	fs.StringVar(&v.color, "color", "auto", "the view's colour: auto, always or never (NO_COLOR turns it off in auto); only the view has colour")
	fs.StringVarP(&v.container, "container", "c", "", "show only the lanes of this container, in the view, the plain lines and -o json/yaml: a name, or a regular expression as stern's (one with * + ? ^ $ [ ] ( ) { } | or \\)")
}

// readLanes reads -c into v.lanes, before anything is opened.
func (v *viewOptions) readLanes() error {
	var err error
	v.lanes, err = newLaneFilter(v.container)
	return err
}

// addFlags adds the flags of a watch: the target's (addTargetFlags), --export and the logs'.
func (k *kubeOptions) addFlags(fs *pflag.FlagSet) {
	k.addTargetFlags(fs)
	k.addOwn(fs, func() {
		k.exports.addFlags(fs)
		k.logs.addFlags(fs)
	})
}

// addTargetFlags adds what names a live target and the cluster it is in: kubectl's flags, -l
// and -A.
func (k *kubeOptions) addTargetFlags(fs *pflag.FlagSet) {
	k.addOwn(fs, func() {
		k.config.addFlags(fs)
		fs.StringVarP(&k.selector, "selector", "l", "", "watch the pods this label selector matches")
		fs.BoolVarP(&k.all, "all-namespaces", "A", false, "watch every pod of every namespace: the fleet table (with -l, those it matches)")
	})
}

// addOwn runs add and keeps the names of the flags it added to fs.
func (k *kubeOptions) addOwn(fs *pflag.FlagSet, add func()) {
	before := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { before[f.Name] = true })
	add()
	fs.VisitAll(func(f *pflag.Flag) {
		if !before[f.Name] {
			k.names = append(k.names, f.Name)
		}
	})
	k.flags = fs
}

// refuseWithRecording is an error naming the first of k's flags given on the command line: they
// say which cluster to watch, and name, a recording, is already what was watched.
func (k *kubeOptions) refuseWithRecording(name string) error {
	if k.flags == nil {
		return nil
	}
	for _, n := range k.names {
		if f := k.flags.Lookup(n); f != nil && f.Changed {
			return fmt.Errorf("--%s is for a live target; %s is a recording, whose cluster and namespace were chosen when it was recorded", n, name)
		}
	}
	return nil
}

// target parses the command line's target in the namespace the kubectl flags give.
func (k *kubeOptions) target(args []string) (watch.Target, string, error) {
	ns, _, err := k.config.loader().Namespace()
	if err != nil {
		return watch.Target{}, "", kubeconfigError(err)
	}
	t, err := watch.ParseScope(args, k.selector, ns, k.all)
	if t.Kind == watch.TargetScope {
		ns = t.Namespace // "" for all namespaces: a recording's header says so
	}
	return t, ns, err
}

// client builds a clientset from the kubectl flags, with API warnings kept off the terminal.
func (k *kubeOptions) client() (kubernetes.Interface, string, error) {
	// Without any configuration client-go would try http://localhost:8080; say what is missing.
	raw, err := k.config.loader().RawConfig()
	if err != nil {
		return nil, "", kubeconfigError(err)
	}
	inCluster := os.Getenv("KUBERNETES_SERVICE_HOST") != ""
	if len(raw.Clusters) == 0 && k.config.server() == "" && !inCluster {
		return nil, "", kubeconfigError(clientcmd.ErrEmptyConfig)
	}
	cfg, err := k.config.restConfig()
	if err != nil {
		return nil, "", kubeconfigError(err)
	}
	cfg.WarningHandler = rest.NoWarnings{}
	// A Job's pods each get their Events listed when first seen: client-go's default of 5
	// requests a second would make a 1,000-pod Job's earlier Events minutes late.
	cfg.QPS, cfg.Burst = 50, 100
	cfg.UserAgent = "sidecar-top/" + version
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, "", kubeconfigError(err)
	}
	return c, cfg.Host, nil
}

// completeTarget completes pod names, and the TYPE/ prefixes.
func (k *kubeOptions) completeTarget(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	out := []string{"pod/", "job/", "deploy/"}
	c, _, err := k.client()
	ns, _, nerr := k.config.loader().Namespace()
	if err != nil || nerr != nil {
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), watch.PreflightTimeout)
	defer cancel()
	switch {
	case strings.HasPrefix(toComplete, "job/"):
		if l, err := c.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{}); err == nil {
			out = nil
			for _, j := range l.Items {
				out = append(out, "job/"+j.Name)
			}
		}
	case strings.HasPrefix(toComplete, "deploy/"):
		if l, err := c.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{}); err == nil {
			out = nil
			for _, d := range l.Items {
				out = append(out, "deploy/"+d.Name)
			}
		}
	default:
		if l, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{}); err == nil {
			for _, p := range l.Items {
				out = append(out, p.Name)
			}
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// colorMode reads --color for an output that is the view (shown) or is not; NO_COLOR is applied
// where the renderer is made. --color always is refused where the view is not shown: plain
// lines and JSON have no colour, so it would change nothing.
func (v *viewOptions) colorMode(shown bool) (ui.ColorMode, error) {
	m, err := ui.ParseColorMode(v.color)
	if err == nil && m == ui.ColorAlways && !shown {
		return m, errors.New("--color always: only the view has colour, and this output is plain lines or JSON (standard output is not a terminal, or --plain or -o was given)")
	}
	return m, err
}
