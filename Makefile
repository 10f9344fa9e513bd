# sidecar-top: `make test` runs every test, unit and real-cluster; `go test ./...` stays the
# fast unit loop.
SHELL := /bin/bash
GO ?= go
BIN := bin/sidecar-top
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: all build demo image test unit release-check e2e cluster-up cluster-down truth fmt vet fuzz readme

all: build

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/sidecar-top

demo:
	$(GO) run ./cmd/sidecar-top demo

# The agent's container image as an OCI archive (docs/deploy.md), built without a Docker engine
# by build/image (go-containerregistry, a module of its own): one layer with a static
# sidecar-top, run as 65532. Every time in it is the last commit's, so two builds of the same
# tree give the same digest. e2e/run.sh imports it into the cluster's containerd.
IMAGE ?= ghcr.io/sidecar-top/sidecar-top:dev
IMAGE_TAR ?= bin/sidecar-top-image.tar
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
image:
	$(GO) -C build/image run . -root $(CURDIR) -o $(abspath $(IMAGE_TAR)) -name $(IMAGE) \
	  -version $(VERSION) -epoch $(SOURCE_DATE_EPOCH)

# The whole suite: vet, unit tests with the race detector, then the end-to-end scenarios on a
# real one-node cluster that e2e/run.sh brings up and always tears down.
test: unit e2e

unit: vet
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) -C build/image test -count=1 ./...
	$(MAKE) release-check

# What GoReleaser's snapshot build would check, without GoReleaser (a program of hundreds of
# modules, too long to build in CI): .goreleaser.yaml's build cross-compiled for each of its
# GOOS/GOARCH pairs with its flags, and this machine's binary run (TestReleaseTargetsBuild). A
# cold build cache takes minutes a target; the go command's cache makes the next run quick.
release-check:
	SIDECAR_TOP_RELEASE_CHECK=1 $(GO) test -count=1 -timeout 60m -run '^TestReleaseTargetsBuild$$' -v ./cmd/sidecar-top

vet:
	$(GO) vet ./...
	$(GO) -C build/image vet ./...

e2e:
	e2e/run.sh

cluster-up:
	e2e/cluster/up.sh

cluster-down:
	e2e/cluster/down.sh

# Runs every fuzz target of the module (each `func Fuzz...` in a _test.go file of a package
# ./... holds) for FUZZTIME each, one after the other; `go test ./...` runs their seed corpora.
# A failing input is saved under the package's testdata/fuzz and replays in `go test` from then on.
# The time includes replaying the corpus the fuzzer has cached: FuzzBuilder's ~860 inputs take
# ~30 s on 2 cores before it tries a new one, hence a minute.
FUZZTIME ?= 60s
fuzz:
	@set -e; n=0; \
	for pkg in $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}:{{.Dir}}{{end}}' ./...); do \
	  dir=$${pkg#*:}; pkg=$${pkg%%:*}; \
	  for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go); do \
	    echo "== $$pkg $$target ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$pkg; \
	    n=$$((n+1)); \
	  done; \
	done; \
	echo "fuzzed $$n targets for $(FUZZTIME) each"

# Writes what README.md and docs/*.md show of sidecar-top from what it does: the view's capture
# and the JSON example from the embedded demo (TestREADME), the output of every console block's
# commands (TestDocs) and design.md's package graph from go list (TestDocsPackageGraph). Each
# test fails when a document differs.
readme:
	$(GO) test -run '^(TestREADME|TestDocs|TestDocsPackageGraph)$$' -count=1 ./cmd/sidecar-top -update

# Prints each scenario's named gaps as sidecar-top shows them beside the runtime's ground truth.
truth:
	e2e/run.sh --truth
