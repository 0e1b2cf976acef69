#!/usr/bin/env bash
# The PostgreSQL store's figures (issue 25), run inside a throwaway cluster:
#
#   pg_virtualenv bash bench/postgres.sh           bulk import, appends, notify modes, feed lag, erasure under load, projections
#   pg_virtualenv bash bench/postgres.sh --large   also 100,000 families (2M lines): import, reads, export, verify
#
# Release build; the load generator and the server share this machine's cores (loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product compass >/dev/null
swift build -c release --product compass-bench >/dev/null
C=.build/release/compass
B=.build/release/compass-bench
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

fresh() {  # a new database with the store's tables; prints its address
    psql -qAtc "DROP DATABASE IF EXISTS $1" >/dev/null
    psql -qAtc "CREATE DATABASE $1" >/dev/null
    $C db init --log "postgresql:///$1" >/dev/null
    echo "postgresql:///$1"
}

# A generated family under new ids, as an app submits events (no seq/prev): FAMILY USERS EVENTS SEED.
family() {
    $C generate --families 1 --events "$3" --seed "$4" |
        sed -e 's/^{"seq":[0-9]*,/{/' -e 's/,"prev":"[0-9a-f]*"}$/}/' -e "s/\"fam-1\"/\"$1\"/g" -e "s/\"u-1-/\"$2-/g"
}

echo "== bulk import of 400,000 generated events (400 families); target >= 60,000 lines/s, peak RSS <= 300 MB"
$C generate --families 400 --events 400000 --seed 5 > "$W/bulk.jsonl"
for run in 1 2 3; do
    I=$(fresh compass_import)
    /usr/bin/time -o "$W/time" -f "%e %M" $C import --log "$I" "$W/bulk.jsonl" >/dev/null
    read -r seconds kb < "$W/time"
    awk -v s="$seconds" -v kb="$kb" 'BEGIN {
        rate = 400000 / s; mb = kb / 1024
        printf "import: %.2f s, %.0f lines/s, peak RSS %.0f MB: %s\n", s, rate, mb, (rate >= 60000 && mb <= 300) ? "met" : "NOT MET" }'
done
$C verify --log "$I" | tail -1

echo "== appends over 10,000 families (pg-load ADDRESS FAMILIES WRITERS SECONDS)"
A=$(fresh compass_load)
for writers in 1 8 32 64; do $B pg-load "$A" 10000 "$writers" 10; done
$B pg-load "$A" 10000 32 10 zipf
$B pg-load "$A" 1 8 10
$C verify --log "$A" | tail -1

echo "== NOTIFY per append: in the append's transaction (default), after its commit, off (32 writers)"
for mode in transaction after off; do
    printf '%-12s ' "$mode"; COMPASS_PG_NOTIFY=$mode $B pg-load "$A" 10000 32 10
done

echo "== feed lag under 32 appenders, and an erasure under that load"
family fam-erase u-erase 2000 5 > "$W/erase.jsonl"
$C import --log "$A" "$W/erase.jsonl" >/dev/null
$B pg-lag "$A" 10000 32 10 u-erase-2 u-erase-1
$C verify --log "$A" | tail -1

echo "== projections (SPEC §6): lag under 32 appenders, rows written per line; rebuild of the 1M-event log"
P=$(fresh compass_proj_source)
T=$(fresh compass_proj_target)
$B projection-lag "$P" "$T" 200 32 10 nice   # the appenders at nice 10, as on other machines
P=$(fresh compass_proj_source2)
T=$(fresh compass_proj_target2)
$B projection-lag "$P" "$T" 200 32 10        # the appenders at the projector's priority
LOG1M=.build/bench/log-v3-1000000.jsonl
[ -f "$LOG1M" ] || $C generate --events 1000000 --families 200 --seed 1 > "$LOG1M"
V=$(fresh compass_proj_rebuild)
COMPASS_SNAPSHOT_MIN_BYTES=off /usr/bin/time -f "rebuild of the 1M log into an empty target: %e s, peak RSS %M KB" \
    $C project --once --log "$LOG1M" --to "$V"

if [ "${1:-}" = "--large" ]; then
    echo "== 100,000 families, 2,000,000 generated events"
    L=$(fresh compass_large)
    $C generate --families 100000 --events 2000000 --seed 1 > "$W/large.jsonl"
    /usr/bin/time -f "import: %e s, peak RSS %M KB" $C import --log "$L" "$W/large.jsonl" | tail -1
    family fam-big u-big 10000 9 > "$W/big.jsonl"
    /usr/bin/time -f "import of one 10,000-event family: %e s" $C import --log "$L" "$W/big.jsonl" | tail -1
    psql -qAtc "SELECT 'store: ' || count(*) || ' lines, ' || pg_size_pretty(pg_database_size('compass_large')) FROM events" compass_large
    small=$(psql -qAtc "SELECT actor FROM events WHERE family = 'fam-777' AND type = 'InteractionLogged' LIMIT 1" compass_large)
    $B pg-read "$L" "$small" 50 u-2-1
    $B pg-read "$L" u-big-2 20 u-2-1
    /usr/bin/time -f "export --stream --all-families: %e s, peak RSS %M KB" $C export --stream --all-families --log "$L" -o "$W/export.jsonl"
    /usr/bin/time -f "verify of the store: %e s, peak RSS %M KB" $C verify --log "$L" | tail -1
    $B pg-lag "$L" 10000 32 10
fi
