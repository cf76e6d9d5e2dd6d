#!/bin/sh
# Writes pipelines.yaml: 200 pipelines, each started by a push to the pull request and done at once.
# Run from this directory: sh gen.sh > pipelines.yaml
cat <<'HEAD'
# Written by gen.sh: 200 pipelines, each started by a push to the pull request and done at once.
version: 1
pipelines:
HEAD
i=1
while [ "$i" -le 200 ]; do
  printf '  p%03d:\n    trigger:\n      event: pull_request.synchronize\n    stages:\n      - id: check\n        type: gate\n        conditions:\n          - {check: no_changes_requested}\n' "$i"
  i=$((i + 1))
done
