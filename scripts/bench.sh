#!/usr/bin/env bash
# Performance figures of sidecar-top (issue 6), printed as a table. Timing is never asserted in
# a test: this script measures, on the machine it runs on, and says which.
#
#   scripts/bench.sh [ROUNDS]
#
# It makes big recordings from the embedded real ones (go run ./bench/synth: a crash-looping
# sidecar at 30/300 restarts, a Job of 100/1,000/2,200 pods), then reports the best of ROUNDS
# (default 3) for:
#   - replay --plain and replay -o json as the work grows 10× (the ratio should stay ≤ 12×);
#   - replay -o json of the ~100 MB recording beside Python's json.loads of every line, and its
#     peak memory beside the file's size;
#   - the Go benchmarks of the live path (observations/s) and of the view (ns per frame).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
dir=${TMPDIR:-/tmp}/sidecar-top-bench
mkdir -p "$dir"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/sidecar-top" ./cmd/sidecar-top
for spec in "restarts 30" "restarts 300" "pods 100" "pods 1000" "pods 2200"; do
	set -- $spec
	f=$dir/$1-$2.jsonl
	[ -s "$f" ] || go run ./bench/synth "$1" "$2" "$f"
done

# best CMD...: the best wall time of ROUNDS runs, in seconds, and the peak RSS of that run (MiB).
best() {
	local b=999999 rss=0 t r
	for _ in $(seq "$rounds"); do
		/usr/bin/time -o "$bin/time" -f "%e %M" "$@" >/dev/null 2>&1
		read -r t r < "$bin/time"
		if awk -v t="$t" -v b="$b" 'BEGIN{exit !(t<b)}'; then b=$t rss=$r; fi
	done
	echo "$b $((rss / 1024))"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a > 0) printf "%.1f×", b/a; else print "-" }'; }

echo "sidecar-top performance, $(date -u +'%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load $(cut -d' ' -f1 /proc/loadavg)"
echo
printf '%-44s %10s %10s %8s\n' "work" "small" "10× work" "ratio"
for pair in "restarts-30 restarts-300 replay --plain" "pods-100 pods-1000 replay --plain" "pods-100 pods-1000 replay -o json"; do
	set -- $pair
	a=$1 b=$2; shift 2
	if [ "$*" = "replay --plain" ]; then args=(replay --plain); else args=(replay -o json); fi
	read -r ta _ < <(best "$bin/sidecar-top" "${args[@]}" "$dir/$a.jsonl")
	read -r tb _ < <(best "$bin/sidecar-top" "${args[@]}" "$dir/$b.jsonl")
	printf '%-44s %9ss %9ss %8s\n' "${args[*]} ${a} → ${b}" "$ta" "$tb" "$(ratio "$ta" "$tb")"
done
echo
big=$dir/pods-2200.jsonl
size=$(( $(stat -c %s "$big") / 1048576 ))
read -r tp _ < <(best python3 -c 'import json,sys
for l in open(sys.argv[1],"rb"):
    l.strip() and json.loads(l)' "$big")
read -r tj rj < <(best "$bin/sidecar-top" replay -o json "$big")
printf 'replay -o json of %d MiB (%s): %ss, peak %d MiB; Python json.loads of every line: %ss (%s of it)\n' \
	"$size" "$(basename "$big")" "$tj" "$rj" "$tp" "$(ratio "$tp" "$tj")"
echo
echo "go test -bench (live path: translate + builder + a snapshot per 33 ms of recorded time; the view):"
go test -run '^$' -bench 'LivePath' -benchtime 5x ./timeline | grep -E '^Benchmark' | awk '{printf "  %-40s %s %s\n", $1, $5, $6}'
go test -run '^$' -bench 'ViewLarge/steady|KeyWhileFramesArrive' -benchtime 200x ./ui | grep -E '^Benchmark' | awk '{printf "  %-40s %.2f ms/op\n", $1, $3/1e6}'
