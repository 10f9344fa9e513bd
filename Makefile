# sidecar-top: `make test` runs every test, unit and real-cluster; `go test ./...` stays the
# fast unit loop.
SHELL := /bin/bash
GO ?= go
BIN := bin/sidecar-top
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: all build demo test unit e2e cluster-up cluster-down truth fmt vet fuzz readme

all: build

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/sidecar-top

demo:
	$(GO) run ./cmd/sidecar-top demo

# The whole suite: vet, unit tests with the race detector, then the end-to-end scenarios on a
# real one-node cluster that e2e/run.sh brings up and always tears down.
test: unit e2e

unit: vet
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

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
