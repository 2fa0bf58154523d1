#!/usr/bin/env bash
# Writes the fisura-cli man page from the program's own help: the top-level --help through
# help2man, plus one section per subcommand with that subcommand's --help, so the page never
# drifts from the program.
#
#   make-man.sh FISURA_CLI OUTPUT.1
set -euo pipefail
cli="$1"
out="$2"
include="$(mktemp)"
trap 'rm -f "$include"' EXIT

{
    echo "[COMMANDS]"
    # Subcommands are listed by CLI11 under "Subcommands:" as "  name   description".
    "$cli" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }' |
        while read -r sub; do
            echo ".SS $sub"
            echo ".nf"
            "$cli" "$sub" --help | sed -e 's/\\/\\\\/g' -e 's/^\./\\\&./'
            echo ".fi"
        done
    echo "[EXIT STATUS]"
    echo "0 on success, 1 when a job failed (the message says why), 2 on bad arguments (an"
    echo "unknown option, a value out of range or not a finite number, an output that is one of"
    echo "the inputs), 3 when memory or another resource (threads, processes) ran out. A job"
    echo "stopped by a signal is cancelled cleanly (nothing half-written is left) and exits with"
    echo "128 + the signal number: 130 for SIGINT (Ctrl-C), 143 for SIGTERM, 129 for SIGHUP,"
    echo "131 for SIGQUIT. With --json (always for train) a failure also prints"
    echo "{\"error\": CODE, \"detail\": TEXT} on standard output."
    echo "[SEE ALSO]"
    echo ".BR fisura (1)"
} > "$include"

help2man --no-info --no-discard-stderr --name "crack detection and measurement from the command line" \
    --section 1 --include "$include" --output "$out" "$cli"
