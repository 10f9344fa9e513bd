#!/usr/bin/env bash
# Figures for the recording reader (issue 6): how fast sidecar-top decodes a large recording
# (each line into its typed object, then watch.Observe, then a sink that drops it) against merely
# parsing every line with Python's json.loads, and the reader's peak memory against the file's size.
#
#   scripts/bench-reader.sh [FILE] [ROUNDS]
#
# Without FILE it makes (once) a ~100 MB recording of 2,200 copies of the real Job's pods with
# ../shared/tools/gen_recording.py. Each round runs Python, then the Go reader with every core,
# with one, and with every core and GOGC=400 (less garbage collection: the reader's live heap is
# small, so at the default GOGC=100 it collects often); the best of ROUNDS (default 3) is
# reported, as the machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-}
rounds=${2:-3}
if [ -z "$file" ]; then
	file=${TMPDIR:-/tmp}/sidecar-top-bench-2200-pods.jsonl
	if [ ! -s "$file" ]; then
		gen=../shared/tools/gen_recording.py
		[ -f "$gen" ] || { echo "bench-reader: no $gen to make a large recording; name a FILE" >&2; exit 1; }
		rm -f "$file.tmp"
		python3 "$gen" pods 2200 recordings/job-native-sidecar.jsonl "$file.tmp"
		mv "$file.tmp" "$file"
	fi
fi

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/readrecording" ./bench/readrecording

python_parse() {
	python3 - "$1" <<'PY'
import json, sys, time
t, c = time.perf_counter(), time.process_time()
with open(sys.argv[1], 'rb') as f:
    for line in f:
        if line.strip():
            json.loads(line)
print(f"{time.perf_counter() - t:.3f} {time.process_time() - c:.3f}")
PY
}

best() { sort -g | head -1; }
py_wall=() go_wall=() go1_wall=() gc_wall=()
for ((i = 0; i < rounds; i++)); do
	read -r w c < <(python_parse "$file"); py_wall+=("$w"); py_cpu=$c
	go_line=$("$bin/readrecording" "$file"); go_wall+=("$(sed -E 's/.*wall ([0-9.]+) s.*/\1/' <<<"$go_line")")
	go1_line=$(GOMAXPROCS=1 "$bin/readrecording" "$file"); go1_wall+=("$(sed -E 's/.*wall ([0-9.]+) s.*/\1/' <<<"$go1_line")")
	gc_line=$(GOGC=400 "$bin/readrecording" "$file"); gc_wall+=("$(sed -E 's/.*wall ([0-9.]+) s.*/\1/' <<<"$gc_line")")
done
py=$(printf '%s\n' "${py_wall[@]}" | best)
go=$(printf '%s\n' "${go_wall[@]}" | best)
go1=$(printf '%s\n' "${go1_wall[@]}" | best)
gc=$(printf '%s\n' "${gc_wall[@]}" | best)
mb=$(awk -v s="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", s / 1e6 }')
field() { sed -E "s/.*$1 ([0-9.]+).*/\1/" <<<"$2"; }

echo "recording: $file, $mb MB, $(wc -l <"$file") lines; $(nproc) cores; best of $rounds rounds"
awk -v mb="$mb" -v t="$py" 'BEGIN { printf "python json.loads per line:     %6.3f s  %6.1f MB/s\n", t, mb / t }'
awk -v mb="$mb" -v t="$go" -v p="$py" -v w="$(field workers "$go_line")" -v c="$(field CPU "$go_line")" \
	'BEGIN { printf "sidecar-top reader, %d workers: %6.3f s  %6.1f MB/s  %.2fx python'"'"'s time  (last round %.3f s CPU)\n", w, t, mb / t, t / p, c }'
awk -v mb="$mb" -v t="$go1" -v p="$py" \
	'BEGIN { printf "sidecar-top reader, 1 worker:  %6.3f s  %6.1f MB/s  %.2fx python'"'"'s time\n", t, mb / t, t / p }'
awk -v mb="$mb" -v t="$gc" -v p="$py" -v r="$(field 'peak RSS' "$gc_line")" \
	'BEGIN { printf "sidecar-top reader, GOGC=400:  %6.3f s  %6.1f MB/s  %.2fx python'"'"'s time  (peak RSS %.1f MiB)\n", t, mb / t, t / p, r }'
awk -v mb="$mb" -v r="$(field 'peak RSS' "$go_line")" \
	'BEGIN { printf "peak RSS of the reader:         %.1f MiB, %.2fx the file (%s MB)\n", r, r * 1048576 / (mb * 1e6), mb }'
