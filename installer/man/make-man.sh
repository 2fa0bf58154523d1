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
    echo "0 on success, 1 when a job failed (the message says why), 2 on bad arguments,"
    echo "130 when cancelled with Ctrl-C (nothing half-written is left)."
    echo "[SEE ALSO]"
    echo ".BR fisura (1)"
} > "$include"

help2man --no-info --no-discard-stderr --name "crack detection and measurement from the command line" \
    --section 1 --include "$include" --output "$out" "$cli"
