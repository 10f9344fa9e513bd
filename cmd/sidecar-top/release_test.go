package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// releaseCheckEnv, set, runs TestReleaseTargetsBuild.
const releaseCheckEnv = "SIDECAR_TOP_RELEASE_CHECK"

// releaseBuild is what TestReleaseTargetsBuild reads of .goreleaser.yaml's build.
type releaseBuild struct {
	Main    string   `json:"main"`
	Binary  string   `json:"binary"`
	Env     []string `json:"env"`
	Flags   []string `json:"flags"`
	Ldflags []string `json:"ldflags"`
	Goos    []string `json:"goos"`
	Goarch  []string `json:"goarch"`
}

// TestReleaseTargetsBuild stands for GoReleaser's snapshot build in CI: it builds
// .goreleaser.yaml's one build for each of its GOOS/GOARCH pairs with the go command, with the
// configuration's environment, flags and ldflags (its templates filled in as a snapshot's), and
// runs the binary built for this machine, which must say the version the ldflags gave it.
// GoReleaser itself is not built: it is a program of several hundred modules, many minutes of a
// 2-core CI run before it builds anything (docs/testing.md); what it adds, the archives, is held
// to the krew manifest by TestKrewManifest. A cold cross-build of each target takes minutes, so
// this runs on its own, from make unit (release-check), outside go test ./...'s timeout.
func TestReleaseTargetsBuild(t *testing.T) {
	if os.Getenv(releaseCheckEnv) == "" {
		t.Skip("cross-compiles sidecar-top for every release target: make release-check, or " + releaseCheckEnv + "=1")
	}
	var cfg struct {
		Builds []releaseBuild `json:"builds"`
	}
	b, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil || len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: %v, %d builds; want one", err, len(cfg.Builds))
	}
	build := cfg.Builds[0]
	for _, want := range []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"} {
		goos, goarch, _ := strings.Cut(want, "/")
		if !slices.Contains(build.Goos, goos) || !slices.Contains(build.Goarch, goarch) {
			t.Errorf("the release does not build %s", want)
		}
	}
	dir := t.TempDir()
	for _, goos := range build.Goos {
		for _, goarch := range build.Goarch {
			build.target(t, dir, goos, goarch)
		}
	}
}

// snapshotTag is the version a snapshot's ldflags give the binaries here.
const snapshotTag = "v0.0.0-snapshot"

// target builds b for goos/goarch into dir and, if that is this machine, runs it.
func (b releaseBuild) target(t *testing.T, dir, goos, goarch string) {
	ldflags := strings.ReplaceAll(strings.Join(b.Ldflags, " "), "{{ .Tag }}", snapshotTag)
	if strings.Contains(ldflags, "{{") {
		t.Fatalf("ldflags %q: a template this test does not fill in", ldflags)
	}
	bin := filepath.Join(dir, goos+"_"+goarch, b.Binary)
	if goos == "windows" {
		bin += ".exe"
	}
	args := append(append([]string{"build"}, b.Flags...), "-ldflags", ldflags, "-o", bin, b.Main)
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(append(os.Environ(), b.Env...), "GOOS="+goos, "GOARCH="+goarch)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("GOOS=%s GOARCH=%s go %s: %v\n%s", goos, goarch, strings.Join(args, " "), err, out)
		return
	}
	t.Logf("%s/%s built in %s", goos, goarch, time.Since(start).Round(time.Second))
	if goos == runtime.GOOS && goarch == runtime.GOARCH {
		out, err := exec.Command(bin, "version").Output()
		if want := "sidecar-top version " + snapshotTag + "\n"; err != nil || string(out) != want {
			t.Errorf("%s version: %q (%v), want %q", bin, out, err, want)
		}
	}
}

// goreleaserProject is the part of GoReleaser's configuration (v2, pkg/config's Project) that
// .goreleaser.yaml uses, each key as GoReleaser spells it: TestGoreleaserConfig reads the file
// strictly, as GoReleaser does, so a misspelt key fails here rather than at the release.
type goreleaserProject struct {
	Version     int    `json:"version"`
	ProjectName string `json:"project_name"`
	Builds      []struct {
		ID      string   `json:"id"`
		Main    string   `json:"main"`
		Binary  string   `json:"binary"`
		Env     []string `json:"env"`
		Flags   []string `json:"flags"`
		Ldflags []string `json:"ldflags"`
		Goos    []string `json:"goos"`
		Goarch  []string `json:"goarch"`
	} `json:"builds"`
	Archives []struct {
		ID              string   `json:"id"`
		IDs             []string `json:"ids"`
		NameTemplate    string   `json:"name_template"`
		Formats         []string `json:"formats"`
		FormatOverrides []struct {
			Goos    string   `json:"goos"`
			Formats []string `json:"formats"`
		} `json:"format_overrides"`
		Files []string `json:"files"`
	} `json:"archives"`
	Checksum struct {
		NameTemplate string `json:"name_template"`
	} `json:"checksum"`
	Snapshot struct {
		VersionTemplate string `json:"version_template"`
	} `json:"snapshot"`
	Changelog struct {
		Disable bool `json:"disable"`
	} `json:"changelog"`
}

// TestGoreleaserConfig: .goreleaser.yaml is GoReleaser's configuration version 2, read strictly
// (what goreleaser check does first), its archives of the one build, in formats GoReleaser makes,
// with files that exist.
func TestGoreleaserConfig(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var p goreleaserProject
	if err := yaml.UnmarshalStrict(b, &p); err != nil {
		t.Fatalf(".goreleaser.yaml: %v (a key GoReleaser takes but this test does not know: add it to goreleaserProject)", err)
	}
	if p.Version != 2 || p.ProjectName == "" || len(p.Builds) != 1 || len(p.Archives) != 1 {
		t.Fatalf("want version 2, a project name, one build and one archive: %+v", p)
	}
	a := p.Archives[0]
	if !slices.Equal(a.IDs, []string{p.Builds[0].ID}) {
		t.Errorf("the archive holds builds %v, want [%s]", a.IDs, p.Builds[0].ID)
	}
	formats := a.Formats
	for _, o := range a.FormatOverrides {
		formats = append(formats, o.Formats...)
	}
	for _, f := range formats {
		if !slices.Contains([]string{"tar", "tgz", "tar.gz", "zip", "gz", "tar.xz", "txz", "binary"}, f) {
			t.Errorf("archive format %q: not one GoReleaser makes", f)
		}
	}
	for _, f := range a.Files {
		if _, err := os.Stat(filepath.Join("..", "..", f)); err != nil {
			t.Errorf("archive file: %v", err)
		}
	}
}
