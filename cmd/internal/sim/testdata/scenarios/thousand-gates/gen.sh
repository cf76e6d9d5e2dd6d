#!/bin/sh
# Writes pipelines.yaml: a pipeline of 1,000 gates, then a merge.
# Run from this directory: sh gen.sh > pipelines.yaml
cat <<'HEAD'
# Written by gen.sh: 1,000 gates that hold together, then a merge.
version: 1
pipelines:
  thousand:
    description: a thousand gates, each needing label go and no changes requested, then a merge
    trigger:
      event: pull_request.opened
    stages:
HEAD
i=1
while [ "$i" -le 1000 ]; do
  printf '      - id: gate-%04d\n        type: gate\n        conditions:\n          - {check: label_present, label: go}\n          - {check: no_changes_requested}\n' "$i"
  i=$((i + 1))
done
cat <<'TAIL'
      - id: merge
        type: action
        action: merge_pr
        config: {method: squash}
        on_success: complete
TAIL
