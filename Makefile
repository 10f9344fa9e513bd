# sidecar-top: `make test` runs every test, unit and real-cluster; `go test ./...` stays the
# fast unit loop.
SHELL := /bin/bash
GO ?= go
BIN := bin/sidecar-top
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: all build demo test unit e2e cluster-up cluster-down truth fmt vet

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

# Prints each scenario's named gaps as sidecar-top shows them beside the runtime's ground truth.
truth:
	e2e/run.sh --truth
