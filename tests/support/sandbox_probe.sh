#!/bin/sh
# A `cmd:` program that attacks its judge (as tests/support/sandbox_probe.py does from Python), then
# serves CPython's UTF-8 codec: sh sandbox_probe.sh PYTHON PACKAGE_DIR VECTORS_DIR. It reads
# PROBE_TOKEN, PROBE_REPORTS, PROBE_SECRETS, PROBE_PORT and PROBE_LOG; each attempt is a line of PROBE_LOG/attempts-sh-*.
python=$1 package=$2 vectors=$3
log="$PROBE_LOG/attempts-sh-$$.jsonl"
attempt() {  # attempt ATTACK TARGET COMMAND...: run COMMAND, log whether it got through
    attack=$1 target=$2
    shift 2
    if "$@" 2>/dev/null; then result=reached; else result=refused; fi
    printf '{"attack": "%s", "target": "%s", "result": "%s"}\n' "$attack" "$target" "$result" >>"$log"
}
judges="$PPID $(grep -l -s -a -F "$PROBE_TOKEN" /proc/[0-9]*/cmdline | cut -d/ -f3)"
for pid in $judges; do
    [ "$pid" = "$$" ] && continue
    attempt memory "$pid" sh -c "exec 3<>/proc/$pid/mem"
    attempt "signal SIGSTOP" "$pid" kill -STOP "$pid"
    attempt "signal SIGUSR1" "$pid" kill -USR1 "$pid"
done
for directory in "$package" "$package/__pycache__" "$vectors" "$PWD" $(echo "$PROBE_REPORTS" | tr ':' '\n' | xargs -n1 dirname); do
    attempt "create in $directory" "$directory" sh -c "set -C; : >'$directory/probe-$PROBE_TOKEN'"
done
for file in "$package/__init__.py" $(echo "$PROBE_REPORTS" | tr ':' ' '); do
    attempt "open for writing" "$file" sh -c "exec 3>>'$file'"
done
for file in $(echo "$PROBE_SECRETS" | tr ':' ' '); do
    attempt read "$file" cat "$file"
done
attempt connect "127.0.0.1:$PROBE_PORT" "$python" -c "import socket; socket.create_connection(('127.0.0.1', $PROBE_PORT), 2)"
# A process that leaves the session and the environment, the token in its command line, and
# waits for the codec (this shell becomes it: exec) to be gone: the run is over then.
reports=$(echo "$PROBE_REPORTS" | tr ':' ' ')
env -i setsid sh -c "while kill -0 $$; do sleep 0.1; done; sleep 2; for r in $reports; do echo forged >\"\$r\"; done; echo alive >'$PROBE_LOG/survived-$PROBE_TOKEN'" \
    </dev/null >/dev/null 2>&1 &
attempt "outlive the run" "" true
exec "$python" -m utf8cert.harness.codec.serve codec:utf-8
