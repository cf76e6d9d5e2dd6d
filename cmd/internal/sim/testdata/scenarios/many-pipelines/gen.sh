#!/bin/sh
# Writes pipelines.yaml: 200 pipelines, each started by the label go and done at once.
# Run from this directory: sh gen.sh > pipelines.yaml
cat <<'HEAD'
# Written by gen.sh: 200 pipelines, each started by the label go and done at once.
version: 1
pipelines:
HEAD
i=1
while [ "$i" -le 200 ]; do
  printf '  p%03d:\n    trigger:\n      event: pull_request.labeled\n      conditions: {label: go}\n    stages:\n      - id: check\n        type: gate\n        conditions:\n          - {check: label_present, label: go}\n' "$i"
  i=$((i + 1))
done
