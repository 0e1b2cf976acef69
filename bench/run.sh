#!/usr/bin/env bash
# The benchmark: one command, from a fresh clone.
#
#   bash bench/run.sh            # 1,000,000 events (about 617 MB), 3 runs each, medians
#   bash bench/run.sh --smoke    # 3,000 events, 1 run, no DuckDB install (CI runs this)
#
# It builds release binaries, generates the logs with `compass generate`, then times on the
# same files: `compass replay` (every projection), `compass interactions` (cold), a query on a
# family-sized log (5,000 events, process start included), Foundation's JSONDecoder doing the
# aggregate (live interactions by direction and type), DuckDB (from PyPI into a local venv,
# when it can be installed) and jq (when installed) doing the same aggregate; peak RSS; and
# append throughput (in-process appends vs a raw write+fsync loop, `import` of a batch). The
# ratios against another program are also timed with the two run in turn (`paired_ratio`).
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=1000000
RUNS=3
SMOKE=0
if [ "${1:-}" = "--smoke" ]; then EVENTS=3000; RUNS=1; SMOKE=1; fi
WORK=.build/bench
mkdir -p "$WORK"
# On Linux the binaries are fully static executables (as a deployed CLI would be): no dynamic
# loader, no relocations at start; `compass --help` takes about 1 ms instead of 2 (4 ms with the
# Swift runtime and Foundation as shared libraries).
STATIC=""
[ "$(uname)" = Linux ] && STATIC="-Xswiftc -static-executable"
swift build -c release $STATIC --product compass >&2
swift build -c release $STATIC --product compass-bench >&2
BIN=$(swift build -c release $STATIC --show-bin-path)
C="$BIN/compass"
LOG="$WORK/log-v3-$EVENTS.jsonl"   # v3 (family streams): older logs here are v2
FAMILY="$WORK/family-v3-5000.jsonl"
[ -f "$LOG" ] || "$C" generate --events "$EVENTS" --families 200 --seed 1 > "$LOG"
[ -f "$FAMILY" ] || "$C" generate --events 5000 --families 1 --seed 2 > "$FAMILY"
LOGBYTES=$(wc -c < "$LOG")
echo "log: $LOG ($LOGBYTES bytes, $EVENTS events); machine: $(nproc) cores"
RESULTS=${RESULTS:-bench/results.md}
[ "$SMOKE" = 1 ] && RESULTS="$WORK/results-smoke.md"
: > "$RESULTS.rows"

# The median wall time of $RUNS runs of a command (clock read around each run, so process start
# is included), then its peak RSS from one more run under /usr/bin/time.
measure() {
  local label=$1; shift
  local times=()
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null 2>> "$WORK/stderr.txt" || true
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000 ))")
  done
  /usr/bin/time -f "%M" -o "$WORK/time.txt" "$@" > /dev/null 2>> "$WORK/stderr.txt" || true
  local median low high rss
  rss=$(tail -n 1 "$WORK/time.txt")
  read -r median low high < <(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.4f %.4f %.4f\n", a[int((NR+1)/2)] / 1e6, a[1] / 1e6, a[NR] / 1e6}')
  printf '%-50s %9.4f s  (%.4f–%.4f)  peak RSS %7d KB\n' "$label" "$median" "$low" "$high" "$rss"
  echo "$median" > "$WORK/last.txt"
  echo "$rss" > "$WORK/last-rss.txt"
  echo "| $label | $median s | $low–$high s | $rss KB |" >> "$RESULTS.rows"
}

# The median of $PAIRS ratios A/B of two commands' wall times (shell functions), the two run
# one right after the other each time, in turn first: both see the machine in the same state.
# (On a shared VM the speed drifts by a third within minutes, so two medians taken minutes
# apart can differ by as much as the ratio's goal allows.)
PAIRS=$([ "$SMOKE" = 1 ] && echo 1 || echo 15)
paired_ratio() {  # paired_ratio FUNCTION_A FUNCTION_B
  local ratios=() pair a b
  for pair in $(seq "$PAIRS"); do
    if [ $((pair % 2)) = 1 ]; then
      a=$(wall_ns "$1"); b=$(wall_ns "$2")
    else
      b=$(wall_ns "$2"); a=$(wall_ns "$1")
    fi
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')")
  done
  printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}'
}
wall_ns() {
  local start end
  start=$(date +%s%N)
  "$1" > /dev/null 2>> "$WORK/stderr.txt" || true
  end=$(date +%s%N)
  echo $((end - start))
}

# Targets of the performance issue: one line each, met or not met, into the results file.
TARGETS=()
target() {  # target LABEL VALUE OP GOAL UNIT
  local verdict
  verdict=$(awk -v v="$2" -v g="$4" -v op="$3" 'BEGIN { ok = (op == "<=") ? (v <= g) : (v >= g); print (ok ? "met" : "NOT MET") }')
  TARGETS+=("| $1 | $2 $5 | $3 $4 $5 | $verdict |")
  printf '  target: %-52s %s %s (goal %s %s %s)\n' "$1" "$2" "$5" "$3" "$4" "$verdict"
}

rm -f "$LOG.snapshot" "$FAMILY.snapshot"
OFF="env COMPASS_SNAPSHOT_MIN_BYTES=off"
measure "compass replay, cold (all projections)" $OFF "$C" replay --log "$LOG"; REPLAY=$(cat "$WORK/last.txt")
rm -f "$LOG.snapshot"
measure "compass replay, cold, writing its snapshot" env COMPASS_SNAPSHOT_MIN_BYTES=0 sh -c "rm -f '$LOG.snapshot'; exec '$C' replay --log '$LOG'"
SNAPRSS=$(cat "$WORK/last-rss.txt")
measure "compass interactions --json, cold" $OFF "$C" interactions --log "$LOG" --as u-1-1 --json --now 2026-01-01T00:00:00Z
"$C" replay --log "$LOG" > /dev/null || true   # writes the snapshot
measure "compass replay, with snapshot" "$C" replay --log "$LOG"
measure "compass interactions --json, with snapshot" "$C" interactions --log "$LOG" --as u-1-1 --json --now 2026-01-01T00:00:00Z
measure "compass analytics --json, with snapshot" "$C" analytics --log "$LOG" --as u-1-1 --json --now 2026-01-01T00:00:00Z
BIGRUNS=$RUNS
[ "$SMOKE" = 0 ] && RUNS=11   # family-sized queries take milliseconds: more runs for a steady median
measure "process start (compass --help)" "$C" --help
measure "compass interactions, 5,000-event log" $OFF "$C" interactions --log "$FAMILY" --as u-1-1 --json --now 2026-01-01T00:00:00Z
measure "compass analytics, 5,000-event log" $OFF "$C" analytics --log "$FAMILY" --as u-1-1 --json --now 2026-01-01T00:00:00Z; SMALLCOLD=$(cat "$WORK/last.txt")
COMPASS_SNAPSHOT_MIN_BYTES=0 "$C" replay --log "$FAMILY" > /dev/null || true   # a family's first query leaves a snapshot
measure "compass analytics, 5,000-event log, snapshot" "$C" analytics --log "$FAMILY" --as u-1-1 --json --now 2026-01-01T00:00:00Z; SMALLSNAP=$(cat "$WORK/last.txt")
measure "compass interactions, 5,000-event log, snapshot" "$C" interactions --log "$FAMILY" --as u-1-1 --json --now 2026-01-01T00:00:00Z
# An append on the big log with its snapshot (on a copy, so the benchmark's log stays as generated).
cp "$LOG" "$WORK/append.jsonl"; cp "$LOG.snapshot" "$WORK/append.jsonl.snapshot" 2>/dev/null || true
measure "compass add-school, big log, snapshot" "$C" add-school --log "$WORK/append.jsonl" --as u-1-1 --name "Bench U" --now 2026-01-01T00:00:00Z; APPEND=$(cat "$WORK/last.txt")
RUNS=$BIGRUNS
measure "JSONDecoder aggregate (baseline)" "$BIN/compass-bench" decode "$LOG"; DECODER=$(cat "$WORK/last.txt")
target "replay vs JSONDecoder (times faster)" "$(awk -v r="$REPLAY" -v d="$DECODER" 'BEGIN { printf "%.2f", d / r }')" ">=" 5 "x"

SQL="WITH e AS (SELECT * FROM read_json('$LOG', format='newline_delimited', columns={type:'VARCHAR', family:'VARCHAR', data:'JSON'}))
SELECT data->>'direction' AS d, data->>'type' AS t, count(*) FROM e WHERE type = 'InteractionLogged'
AND (family || '/' || (data->>'interactionId')) NOT IN (SELECT family || '/' || (data->>'interactionId') FROM e WHERE type = 'InteractionDeleted')
GROUP BY 1, 2"
VENV="$WORK/venv"
if [ "$SMOKE" = 0 ] && [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" >&2 && "$VENV/bin/pip" install -q duckdb >&2 || echo "  (DuckDB could not be installed: skipped)"
fi
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import duckdb" 2>/dev/null; then
  for threads in 2 1; do
    measure "DuckDB read_json aggregate, $threads thread(s)" "$VENV/bin/python" -c "import duckdb,sys; c=duckdb.connect(); c.execute('SET threads=$threads'); c.execute(sys.argv[1]).fetchall()" "$SQL"
    [ "$threads" = 2 ] && DUCK=$(cat "$WORK/last.txt")
  done
  target "cold replay / DuckDB (2 threads), medians" "$(awk -v r="$REPLAY" -v d="$DUCK" 'BEGIN { printf "%.2f", r / d }')" "<=" 1.0 "x"
  cold_replay() { $OFF "$C" replay --log "$LOG"; }
  duckdb_aggregate() { "$VENV/bin/python" -c "import duckdb,sys; c=duckdb.connect(); c.execute('SET threads=2'); c.execute(sys.argv[1]).fetchall()" "$SQL"; }
  target "cold replay / DuckDB (2 threads), run in turn" "$(paired_ratio cold_replay duckdb_aggregate)" "<=" 1.0 "x"
else
  echo "DuckDB: not available (run without --smoke to install it into $VENV)"
fi
if command -v jq > /dev/null; then
  measure "jq aggregate (logged, by direction and type)" sh -c "jq -c 'select(.type==\"InteractionLogged\") | [.data.direction, .data.type]' '$LOG' | sort | uniq -c"
else
  echo "jq: not installed (skipped)"
fi

"$BIN/compass-bench" retained "$LOG"
"$BIN/compass-bench" appends $([ "$SMOKE" = 1 ] && echo 100 || echo 2000) "$WORK/appends"
head -n $([ "$SMOKE" = 1 ] && echo 2000 || echo 200000) "$LOG" > "$WORK/import.jsonl"
# Each run imports into a new log (median of $RUNS runs, like every row above).
measure "compass import, lines with seq/prev" sh -c "rm -f '$WORK/imported.jsonl' '$WORK/imported.jsonl'.*; exec '$C' import '$WORK/import.jsonl' --log '$WORK/imported.jsonl'"
IMPORTRATE=$(awk -v s="$(cat "$WORK/last.txt")" -v n="$(wc -l < "$WORK/import.jsonl")" 'BEGIN { printf "%.0f", n / s }')
echo "import: $(wc -l < "$WORK/import.jsonl") events at $IMPORTRATE events/s"
cmp -s "$WORK/import.jsonl" "$WORK/imported.jsonl" || { echo "import did not rebuild the same bytes" >&2; exit 1; }
echo "import rebuilt the same bytes"
# verify of the whole log, against the cold replay (issue 28: at replay's pace).
measure "compass verify, whole log" "$C" verify --log "$LOG"; VERIFY=$(cat "$WORK/last.txt")
target "verify of the log / cold replay, medians" "$(awk -v v="$VERIFY" -v r="$REPLAY" 'BEGIN { printf "%.2f", v / r }')" "<=" 1.2 "x"
verify_log() { "$C" verify --log "$LOG"; }
cold_replay() { $OFF "$C" replay --log "$LOG"; }
target "verify of the log / cold replay, run in turn" "$(paired_ratio verify_log cold_replay)" "<=" 1.2 "x"

# Import as an app submits events: no seq, no prev, 50 families (issue 28).
APPEVENTS=$([ "$SMOKE" = 1 ] && echo 2000 || echo 200000)
"$C" generate --events "$APPEVENTS" --families 50 --seed 5 | sed -e 's/^{"seq":[0-9]*,/{/' -e 's/,"prev":"[0-9a-f]*"}$/}/' > "$WORK/app-import.jsonl"
measure "compass import, app-submitted lines (no seq/prev, 50 families)" sh -c "rm -f '$WORK/app-imported.jsonl' '$WORK/app-imported.jsonl'.*; exec '$C' import '$WORK/app-import.jsonl' --log '$WORK/app-imported.jsonl'"
APPSECS=$(cat "$WORK/last.txt"); APPRSS=$(cat "$WORK/last-rss.txt")
APPRATE=$(awk -v s="$APPSECS" -v n="$APPEVENTS" 'BEGIN { printf "%.0f", n / s }')
APPBYTES=$(wc -c < "$WORK/app-import.jsonl")
# The app's lines of a generated history import back to the generator's log, byte for byte.
"$C" generate --events "$APPEVENTS" --families 50 --seed 5 | cmp -s - "$WORK/app-imported.jsonl" ||
  { echo "the app-submitted import did not rebuild the generated log" >&2; exit 1; }
# The state: the peak RSS of a cold read of what the import wrote that holds every text (the
# issue's "input + state"; a query's, since `compass replay` leaves the texts in the log).
/usr/bin/time -f "%e %M" -o "$WORK/time.txt" env COMPASS_SNAPSHOT_MIN_BYTES=off "$C" interactions --log "$WORK/app-imported.jsonl" --as u-1-1 --json --now 2026-01-01T00:00:00Z > /dev/null
read -r _ STATERSS < "$WORK/time.txt"
echo "import of app-submitted events: $APPEVENTS at $APPRATE events/s, peak RSS $APPRSS KB for $APPBYTES bytes of input"

# The cost curve: cold replay (snapshots off) and a family's query with its snapshot, at
# 100k, 1M and 3M events of the same generator (issue 28). Not in --smoke.
if [ "$SMOKE" = 0 ]; then
  "$C" generate --events 5000 --families 1 --seed 2 |
    sed -e 's/^{"seq":[0-9]*,/{/' -e 's/,"prev":"[0-9a-f]*"}$/}/' -e 's/"fam-1"/"fam-fixed"/g' -e 's/"u-1-/"u-fixed-/g' > "$WORK/fixed-family.jsonl"
  for n in 100000 1000000 3000000; do
    CURVE="$WORK/curve-v3-$n.jsonl"
    if [ "$n" = "$EVENTS" ]; then CURVE=$LOG; fi
    [ -f "$CURVE" ] || "$C" generate --events "$n" --families 200 --seed 1 > "$CURVE"
    rm -f "$CURVE.snapshot"
    measure "curve: cold replay, $n events" $OFF "$C" replay --log "$CURVE"
    eval "CURVE_$n=$(cat "$WORK/last.txt")"
    "$C" replay --log "$CURVE" > /dev/null || true   # leaves the snapshot
    measure "curve: one family's interactions, snapshot, $n events" "$C" interactions --log "$CURVE" --as u-1-1 --json --now 2026-01-01T00:00:00Z
    # The same 5,000-event family in each store (imported into a copy): its query should not
    # grow with the store.
    cp "$CURVE" "$WORK/curve-fixed.jsonl"
    rm -f "$WORK/curve-fixed.jsonl.snapshot"
    "$C" import --log "$WORK/curve-fixed.jsonl" "$WORK/fixed-family.jsonl" > /dev/null
    "$C" replay --log "$WORK/curve-fixed.jsonl" > /dev/null || true   # leaves the snapshot
    measure "curve: a 5,000-event family's interactions, snapshot, $n events" "$C" interactions --log "$WORK/curve-fixed.jsonl" --as u-fixed-1 --json --now 2026-01-01T00:00:00Z
  done
  target "replay time per event, 3M vs 100k, medians" "$(awk -v a="$CURVE_100000" -v b="$CURVE_3000000" 'BEGIN { printf "%.2f", (b / 3000000) / (a / 100000) }')" "<=" 1.15 "x"
  # The same ratio with the two replays run in turn: a 100k replay takes 0.15 s, and the spread
  # of three of them alone moved the ratio of medians by a fifth.
  rm -f "$WORK/curve-v3-100000.jsonl.snapshot" "$WORK/curve-v3-3000000.jsonl.snapshot"
  curve_small() { $OFF "$C" replay --log "$WORK/curve-v3-100000.jsonl"; }
  curve_large() { $OFF "$C" replay --log "$WORK/curve-v3-3000000.jsonl"; }
  target "replay time per event, 3M vs 100k, run in turn" "$(awk -v r="$(paired_ratio curve_large curve_small)" 'BEGIN { printf "%.2f", r / 30 }')" "<=" 1.15 "x"
fi

target "analytics, 5,000-event log, with its snapshot" "$(awk -v t="$SMALLSNAP" 'BEGIN { printf "%.1f", t * 1000 }')" "<=" 10 "ms"
target "analytics, 5,000-event log, cold" "$(awk -v t="$SMALLCOLD" 'BEGIN { printf "%.1f", t * 1000 }')" "<=" 25 "ms"
target "CLI append on the big log with its snapshot" "$(awk -v t="$APPEND" 'BEGIN { printf "%.1f", t * 1000 }')" "<=" 15 "ms"
target "import" "$IMPORTRATE" ">=" 100000 "events/s"
target "import of app-submitted events" "$APPRATE" ">=" 120000 "events/s"
target "peak RSS of that import / (its input + the state's RSS)" "$(awk -v r="$APPRSS" -v b="$APPBYTES" -v s="$STATERSS" 'BEGIN { printf "%.2f", r / (b / 1024 + s) }')" "<=" 1.0 "x"
target "peak RSS of a cold replay writing its snapshot / log size" "$(awk -v r="$SNAPRSS" -v b="$LOGBYTES" 'BEGIN { printf "%.2f", r * 1024 / b }')" "<=" 0.6 "x"

# The measured tables replace the top of the results file; its "## " sections (figures
# measured by hand, the PostgreSQL ones) are kept below.
KEPT=""
[ -f "$RESULTS" ] && KEPT=$(awk '/^## /{found=1} found' "$RESULTS")
{
  echo "# Benchmark results"
  echo
  echo "\`bash bench/run.sh$([ "$SMOKE" = 1 ] && echo " --smoke")\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m); log of $EVENTS events ($LOGBYTES bytes); medians of $RUNS runs (family-sized queries: 11), spread min–max."
  echo
  echo "| what | median | spread | peak RSS |"
  echo "|---|---|---|---|"
  cat "$RESULTS.rows"
  echo
  echo "| target | measured | goal | |"
  echo "|---|---|---|---|"
  printf '%s\n' "${TARGETS[@]}"
  if [ -n "$KEPT" ]; then echo; echo "$KEPT"; fi
} > "$RESULTS.new"
mv "$RESULTS.new" "$RESULTS"
rm -f "$RESULTS.rows"
echo "results: $RESULTS"
