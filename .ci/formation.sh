#!/usr/bin/env bash
# A pg_auto_failover formation on loopback (a monitor, a primary and a synchronous standby),
# from Debian's packages, for FailoverTests (issue 56) and for trying failover by hand.
#
#   .ci/formation.sh up DIR            start it in DIR; prints the store's multi-host URL
#   .ci/formation.sh kill-primary DIR  SIGKILL the primary's keeper and postmaster; prints its name
#   .ci/formation.sh kill-postmaster DIR  SIGKILL the primary's postmaster only (its keeper restarts it)
#   .ci/formation.sh rejoin DIR NODE   start a killed node's keeper again (it rejoins as a standby)
#   .ci/formation.sh wait DIR          until one node is primary and the other secondary
#   .ci/formation.sh state DIR         the monitor's view of the nodes
#   .ci/formation.sh down DIR          stop everything and remove DIR
#
# Ports 6100 (monitor), 6101 and 6102 (the nodes) on 127.0.0.1. Everything runs as the
# `postgres` user (initdb refuses root); the script switches to it when run as root.
set -euo pipefail
command=${1:?usage: formation.sh up|kill-primary|rejoin|wait|state|down DIR [NODE]}
base=${2:?usage: formation.sh $command DIR}
if [ "$(id -u)" -eq 0 ]; then
  # As `postgres`, from a copy in DIR (the clone may be in a folder `postgres` cannot read).
  mkdir -p "$base"; chown postgres "$base"
  install -m 755 "$0" "$base/.formation.sh"
  exec runuser -u postgres -- bash "$base/.formation.sh" "$@"
fi
export PATH=/usr/lib/postgresql/15/bin:$PATH XDG_CONFIG_HOME=$base/config XDG_DATA_HOME=$base/data
monitor="postgres://autoctl_node@127.0.0.1:6100/pg_auto_failover?sslmode=disable"
url="postgresql://postgres@127.0.0.1:6101,127.0.0.1:6102/compass?target_session_attrs=read-write&sslmode=disable&connect_timeout=2"

# Starts a node's keeper in a session of its own (so kill-primary can end it whole).
start_node() {  # name port
  setsid pg_autoctl create postgres --pgdata "$base/$1" --pgport "$2" --hostname 127.0.0.1 --listen 127.0.0.1 \
    --auth trust --no-ssl --monitor "$monitor" --dbname compass --name "$1" --run >> "$base/$1.log" 2>&1 < /dev/null &
  echo $! > "$base/$1.keeper"
}

state() { pg_autoctl show state --pgdata "$base/monitor" 2>/dev/null; }

# The node that is primary now, or a failure that shows the state.
primary() {
  local name; name=$(state | awk -F'|' '$6 ~ /primary/ && $7 ~ /primary/ { gsub(/ /, "", $1); print $1 }' | head -1)
  [ -n "$name" ] || { echo "no primary:" >&2; state >&2; return 1; }
  echo "$name"
}

wait_healthy() {
  for _ in $(seq 1 240); do
    local s; s=$(state || true)
    if echo "$s" | grep -Eq '\| +primary +\| +primary *$' && echo "$s" | grep -Eq '\| +secondary +\| +secondary *$'; then return 0; fi
    sleep 0.5
  done
  echo "the formation did not become healthy:" >&2; state >&2 || true; return 1
}

case "$command" in
  up)
    mkdir -p "$base"
    setsid pg_autoctl create monitor --pgdata "$base/monitor" --pgport 6100 --hostname 127.0.0.1 --listen 127.0.0.1 \
      --auth trust --no-ssl --run >> "$base/monitor.log" 2>&1 < /dev/null &
    echo $! > "$base/monitor.keeper"
    for _ in $(seq 1 120); do pg_isready -q -h 127.0.0.1 -p 6100 -d pg_auto_failover -U autoctl_node && break; sleep 0.5; done
    for _ in $(seq 1 120); do psql -qAt -h 127.0.0.1 -p 6100 -d pg_auto_failover -c "SELECT 1 FROM pgautofailover.formation" >/dev/null 2>&1 && break; sleep 0.5; done
    # Failover within seconds rather than the defaults' half-minute: the monitor checks each
    # node every second and promotes the standby 4 s after the primary stops answering.
    psql -qAt -h 127.0.0.1 -p 6100 -d pg_auto_failover >/dev/null <<'SQL'
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 4000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 4000;
ALTER SYSTEM SET pgautofailover.startup_grace_period = 4000;
SELECT pg_reload_conf();
SQL
    start_node node1 6101
    for _ in $(seq 1 120); do state | grep -Eq '\| +(single|primary) +\| +(single|primary|wait_primary) *$' && break; sleep 0.5; done
    start_node node2 6102
    wait_healthy
    echo "$url" > "$base/url"
    echo "$url"
    ;;
  kill-primary)
    primary=$(primary)
    postmaster=$(head -1 "$base/$primary/postmaster.pid" 2>/dev/null || true)
    kill -KILL -- "-$(cat "$base/$primary.keeper")" 2>/dev/null || true
    [ -n "$postmaster" ] && kill -KILL "$postmaster" 2>/dev/null || true
    echo "$primary"
    ;;
  kill-postmaster)
    # The primary's PostgreSQL alone: its keeper starts it again (a crash, not a lost machine).
    primary=$(primary)
    kill -KILL "$(head -1 "$base/$primary/postmaster.pid")"
    echo "$primary"
    ;;
  rejoin)
    node=${3:?usage: formation.sh rejoin DIR NODE}
    # The killed postmaster's backends end when they notice it is gone; the node's keeper
    # starts its PostgreSQL again once the port is free.
    port=6101; [ "$node" = node2 ] && port=6102
    for _ in $(seq 1 40); do pg_isready -q -h 127.0.0.1 -p "$port" || break; sleep 0.25; done
    setsid pg_autoctl run --pgdata "$base/$node" >> "$base/$node.log" 2>&1 < /dev/null &
    echo $! > "$base/$node.keeper"
    ;;
  wait) wait_healthy ;;
  state) state ;;
  down)
    for keeper in "$base"/*.keeper; do [ -e "$keeper" ] && kill -TERM -- "-$(cat "$keeper")" 2>/dev/null || true; done
    sleep 2
    for keeper in "$base"/*.keeper; do [ -e "$keeper" ] && kill -KILL -- "-$(cat "$keeper")" 2>/dev/null || true; done
    for data in "$base"/monitor "$base"/node1 "$base"/node2; do
      [ -e "$data/postmaster.pid" ] && kill -KILL "$(head -1 "$data/postmaster.pid")" 2>/dev/null || true
    done
    rm -rf "$base"
    ;;
  *) echo "unknown command $command" >&2; exit 2 ;;
esac
