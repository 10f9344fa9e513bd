#!/usr/bin/env bash
# The cost of one pod of many containers (issue 42): CPU seconds (user + system, the best of
# ROUNDS runs) of replay -o json and export --format markdown of a recording of one pod with a
# sidecar and 2,500 / 5,000 / 10,000 app containers (go run ./bench/widepod). The work should
# grow with the containers, not their square. Timing is never asserted in a test: this script
# measures, on the machine it runs on.
#
#   scripts/bench-wide-pod.sh [ROUNDS]
#
# The row "json, no limit" is the anchor: replay -o json with GOMEMLIMIT=off, without replay's
# soft memory limit (boundHeap), in the same run; the limit must cost no more than a constant
# share of it (held at the file's size, below what a wide pod keeps, the collector's share grew
# faster than the pod: heapfollow.go).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
dir=${TMPDIR:-/tmp}/sidecar-top-bench/widepod-$(sha256sum bench/widepod/main.go | cut -c1-12)
mkdir -p "$dir"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/sidecar-top" ./cmd/sidecar-top
sizes=(2500 5000 10000)
for n in "${sizes[@]}"; do
	[ -s "$dir/$n.jsonl" ] || go run ./bench/widepod "$n" "$dir/$n.jsonl"
done
best() {
	local b=
	for _ in $(seq "$rounds"); do
		/usr/bin/time -f '%U %S' -o "$bin/t" "$@" >/dev/null
		local c
		c=$(awk '{printf "%.2f", $1 + $2}' "$bin/t")
		if [ -z "$b" ] || awk "BEGIN { exit !($c < $b) }"; then b=$c; fi
	done
	echo "$b"
}
echo "$(nproc) CPUs, $(uname -m), $(go version | cut -d' ' -f3); CPU seconds, best of $rounds"
printf '%-14s' containers; printf '%10s' "${sizes[@]}"; echo
for what in json json-nolimit markdown; do
	printf '%-14s' "$what"
	for n in "${sizes[@]}"; do
		case $what in
		json) printf '%10s' "$(best "$bin/sidecar-top" replay "$dir/$n.jsonl" -o json)" ;;
		json-nolimit) printf '%10s' "$(GOMEMLIMIT=off best "$bin/sidecar-top" replay "$dir/$n.jsonl" -o json)" ;;
		markdown) printf '%10s' "$(best "$bin/sidecar-top" export "$dir/$n.jsonl" --format markdown)" ;;
		esac
	done
	echo
done
