package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// pluginEnv makes the test binary, run by another name, be sidecar-top: its arguments, and its
// name, are the command line's.
const pluginEnv = "SIDECAR_TOP_TEST_AS_PLUGIN"

func init() {
	if os.Getenv(pluginEnv) != "" { // before the testing package reads the arguments
		os.Exit(run(os.Args[1:], newStreams()))
	}
}

// goreleaserConfig is what TestKrewManifest reads of .goreleaser.yaml.
type goreleaserConfig struct {
	ProjectName string `json:"project_name"`
	Builds      []struct {
		ID     string   `json:"id"`
		Main   string   `json:"main"`
		Binary string   `json:"binary"`
		Goos   []string `json:"goos"`
		Goarch []string `json:"goarch"`
	} `json:"builds"`
	Archives []struct {
		NameTemplate    string   `json:"name_template"`
		Formats         []string `json:"formats"`
		FormatOverrides []struct {
			Goos    string   `json:"goos"`
			Formats []string `json:"formats"`
		} `json:"format_overrides"`
	} `json:"archives"`
}

// krewPlugin is what krew reads of a plugin's manifest.
type krewPlugin struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version          string `json:"version"`
		Homepage         string `json:"homepage"`
		ShortDescription string `json:"shortDescription"`
		Description      string `json:"description"`
		Platforms        []struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
			URI    string `json:"uri"`
			Sha256 string `json:"sha256"`
			Bin    string `json:"bin"`
		} `json:"platforms"`
	} `json:"spec"`
}

// renderKrew renders the manifest template as krew-release-bot does for tag: addURIAndSha
// writes the URL (its {{ .TagName }} filled in) and an archive's checksum on the next line,
// indented by four spaces, as the bot writes them.
func renderKrew(t *testing.T, tmpl []byte, tag string) []byte {
	t.Helper()
	funcs := template.FuncMap{"addURIAndSha": func(url, tag string) string {
		url = strings.ReplaceAll(url, "{{ .TagName }}", tag)
		return "uri: " + url + "\n    sha256: " + strings.Repeat("5e", 32)
	}}
	tp, err := template.New("krew").Funcs(funcs).Parse(string(tmpl))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tp.Execute(&b, struct{ TagName string }{tag}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestKrewManifest: the krew manifest offers exactly the platforms GoReleaser builds, each the
// archive GoReleaser names for it, with its binary; the plugin's name makes the binary
// kubectl-sidecar_top, which names itself "kubectl sidecar-top".
func TestKrewManifest(t *testing.T) {
	var gr goreleaserConfig // more than this reads: not strict
	if b, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yaml")); err != nil {
		t.Fatal(err)
	} else if err := yaml.Unmarshal(b, &gr); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if len(gr.Builds) != 1 || len(gr.Archives) != 1 || gr.Builds[0].Main != "./cmd/sidecar-top" {
		t.Fatalf("want one build of ./cmd/sidecar-top and one archive: %+v", gr)
	}
	build, archive := gr.Builds[0], gr.Archives[0]
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "plugins", "sidecar-top.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const tag = "v1.2.3"
	var kp krewPlugin
	if err := yaml.UnmarshalStrict(renderKrew(t, tmpl, tag), &kp); err != nil {
		t.Fatalf("the rendered manifest: %v", err)
	}
	if kp.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || kp.Kind != "Plugin" || kp.Spec.Version != tag || kp.Spec.ShortDescription == "" || kp.Spec.Description == "" || kp.Spec.Homepage == "" {
		t.Errorf("manifest header: %+v", kp)
	}
	var want, got []string
	for _, goos := range build.Goos {
		for _, goarch := range build.Goarch {
			want = append(want, goos+"/"+goarch)
		}
	}
	for _, p := range kp.Spec.Platforms {
		goos, goarch := p.Selector.MatchLabels["os"], p.Selector.MatchLabels["arch"]
		got = append(got, goos+"/"+goarch)
		name, err := template.New("").Parse(archive.NameTemplate)
		if err != nil {
			t.Fatal(err)
		}
		var archiveName bytes.Buffer
		_ = name.Execute(&archiveName, map[string]string{"ProjectName": gr.ProjectName, "Tag": tag, "Os": goos, "Arch": goarch})
		format := archive.Formats[0]
		for _, o := range archive.FormatOverrides {
			if o.Goos == goos {
				format = o.Formats[0]
			}
		}
		wantURI := "https://github.com/sidecar-top/sidecar-top/releases/download/" + tag + "/" + archiveName.String() + "." + format
		bin := build.Binary
		if goos == "windows" {
			bin += ".exe"
		}
		if p.URI != wantURI || p.Bin != bin || len(p.Sha256) != 64 {
			t.Errorf("%s/%s: uri %q, bin %q; want %q and %q", goos, goarch, p.URI, p.Bin, wantURI, bin)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("the manifest's platforms differ from what GoReleaser builds (-manifest +goreleaser):\n%s", diff)
	}
	if plugin := "kubectl-" + strings.ReplaceAll(kp.Metadata.Name, "-", "_"); displayName(plugin) != "kubectl sidecar-top" {
		t.Errorf("plugin %s names itself %q", plugin, displayName(plugin))
	}
}

// TestKubectlPlugin: run as kubectl-sidecar_top, by itself and through kubectl's plugin
// dispatch when kubectl is on PATH, the program says "kubectl sidecar-top" in its usage and
// examples, and runs its commands.
func TestKubectlPlugin(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plugin := filepath.Join(dir, "kubectl-sidecar_top")
	if err := os.Symlink(self, plugin); err != nil {
		t.Skipf("no symbolic link here: %v", err)
	}
	env := append(os.Environ(), pluginEnv+"=1", "KUBECONFIG="+filepath.Join(dir, "none"), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := runAs(env, plugin, "--help")
	for _, want := range []string{"Usage:\n  kubectl sidecar-top [flags]", "\n  kubectl sidecar-top [command]", "Examples:\n  kubectl sidecar-top -A\n"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("kubectl-sidecar_top --help (%v) lacks %q:\n%s", err, want, out)
		}
	}
	if out, err := runAs(env, plugin, "record", "--help"); err != nil || !strings.Contains(out, "\n  kubectl sidecar-top record [flags]") {
		t.Errorf("kubectl-sidecar_top record --help (%v):\n%s", err, out)
	}
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Log("no kubectl on PATH: its plugin dispatch is not tested")
		return
	}
	if out, err := runAs(env, kubectl, "sidecar-top", "version"); err != nil || out != "sidecar-top version "+version+"\n" {
		t.Errorf("kubectl sidecar-top version (%v): %q", err, out)
	}
	if out, err := runAs(env, kubectl, "sidecar-top", "demo", "termination-order", "-o", "json"); err != nil || !strings.HasPrefix(out, `{"kind":"SidecarTopTimeline"`) {
		t.Errorf("kubectl sidecar-top demo -o json (%v): %.200q", err, out)
	}
}

// runAs runs the program with env and returns its standard output.
func runAs(env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + stderr.String(), err
	}
	return string(out), nil
}
