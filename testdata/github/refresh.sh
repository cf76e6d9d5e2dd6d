#!/usr/bin/env bash
# Re-downloads GitHub's ground truth kept in this folder from its public sources, applies the
# post-processing the SOURCES.md files describe, and puts the results in place:
#
#   graphql/schema.graphql   octokit/graphql-schema at the commit in graphql/SOURCES.md, with the
#                            second declaration of a field declared twice removed
#   webhooks/**.json         each file at the repository, path and commit in webhooks/SOURCES.md,
#                            unchanged
#   rest/operations.json     the operations refresh.py lists, extracted from the npm package
#   rest/response-examples.json
#                            @octokit/openapi@$OPENAPI_VERSION (generated/api.github.com.json),
#                            x-octokit keys removed, and the parts Octokit's build overrides
#                            taken from github/rest-api-description at $GITHUB_DESCRIPTION_REF
#
# Usage: testdata/github/refresh.sh [--update]
#
# It needs the internet (github.com, raw.githubusercontent.com, registry.npmjs.org), curl, tar,
# python3 and sha256sum (or shasum). It cannot run where those hosts are out of reach, such as a
# sandboxed build; the tests never run it, they read the committed files.
#
# Every download is checked against the sha256 (npm: the integrity) recorded in SOURCES.md or below,
# so a refresh at the recorded versions reproduces the committed files, and `git diff` after it
# shows nothing. To move to newer upstream versions, change the commits in the SOURCES.md tables
# (and OPENAPI_VERSION below), run with --update, which reports checksum differences instead of
# failing on them, then record the new checksums it prints in SOURCES.md and review `git diff`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

# The REST description: the npm package read, its integrity and the sha256 of the file used.
OPENAPI_VERSION="${OPENAPI_VERSION:-23.0.2}"
OPENAPI_INTEGRITY="${OPENAPI_INTEGRITY:-sha512-pV8M7L9GY23AybNvTmo2nyjmpmnt6+2sRE/tqr0ZLQcPS4lnw7u5eZGNmwRNkBC3D7gZXbFx5AHzLUVRBXGDhg==}"
OPENAPI_JSON_SHA256="${OPENAPI_JSON_SHA256:-829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a}"
# GitHub's own description, for the three request bodies (and one docs link) Octokit overrides. The
# committed text was read from a copy whose GitHub commit is not recorded (info.version 1.1.4), so
# the default is the newest; pin a commit here once one is known to reproduce rest/operations.json.
GITHUB_DESCRIPTION_REF="${GITHUB_DESCRIPTION_REF:-main}"

update=0
case "${1:-}" in
  "") ;;
  --update) update=1 ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "usage: $0 [--update]" >&2
    exit 2
    ;;
esac

for tool in curl tar python3; do
  command -v "$tool" >/dev/null || { echo "refresh.sh: $tool is needed" >&2; exit 1; }
done
if command -v sha256sum >/dev/null; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
  echo "refresh.sh: sha256sum or shasum is needed" >&2
  exit 1
fi

# The post-processing must still reproduce the committed files before anything is downloaded.
python3 "$here/refresh.py" selftest "$here"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/out"
mkdir -p "$out/graphql" "$out/rest" "$out/webhooks" "$work/dl"
mismatches=0

# fetch URL DEST: download URL to DEST, failing on any HTTP error.
fetch() {
  echo "  $1" >&2
  curl --fail --silent --show-error --location --retry 3 --output "$2" "$1"
}

# check FILE WANT WHAT: compare FILE's sha256 with WANT (from SOURCES.md).
check() {
  local got
  got=$(sha256 "$1")
  if [ "$got" != "$2" ]; then
    echo "refresh.sh: $3: sha256 $got, recorded $2" >&2
    mismatches=$((mismatches + 1))
  fi
}

# raw REPO COMMIT PATH: the URL of a file of a public GitHub repository at a commit.
raw() { echo "https://raw.githubusercontent.com/$1/$2/$3"; }

echo "GraphQL schema" >&2
while IFS=$'\t' read -r file repo path commit sum; do
  fetch "$(raw "$repo" "$commit" "$path")" "$work/dl/schema.graphql"
  check "$work/dl/schema.graphql" "$sum" "graphql/$file (upstream)"
  python3 "$here/refresh.py" schema "$work/dl/schema.graphql" "$out/graphql/$file" >&2
done < <(python3 "$here/refresh.py" table "$here/graphql/SOURCES.md")

echo "webhook payloads" >&2
while IFS=$'\t' read -r file repo path commit sum; do
  mkdir -p "$(dirname "$out/webhooks/$file")"
  fetch "$(raw "$repo" "$commit" "$path")" "$out/webhooks/$file"
  check "$out/webhooks/$file" "$sum" "webhooks/$file"
done < <(python3 "$here/refresh.py" table "$here/webhooks/SOURCES.md")

echo "REST description" >&2
fetch "https://registry.npmjs.org/@octokit/openapi/-/openapi-$OPENAPI_VERSION.tgz" "$work/dl/openapi.tgz"
if ! python3 "$here/refresh.py" sri "$work/dl/openapi.tgz" "$OPENAPI_INTEGRITY"; then
  mismatches=$((mismatches + 1))
fi
tar -xzf "$work/dl/openapi.tgz" -C "$work/dl" package/generated/api.github.com.json
check "$work/dl/package/generated/api.github.com.json" "$OPENAPI_JSON_SHA256" "@octokit/openapi@$OPENAPI_VERSION generated/api.github.com.json"
fetch "$(raw github/rest-api-description "$GITHUB_DESCRIPTION_REF" descriptions/api.github.com/api.github.com.json)" "$work/dl/github.json"
python3 "$here/refresh.py" rest "$work/dl/package/generated/api.github.com.json" "$work/dl/github.json" "$OPENAPI_VERSION" "$out/rest" >&2

if [ "$mismatches" -gt 0 ] && [ "$update" -eq 0 ]; then
  echo "refresh.sh: $mismatches download(s) differ from the recorded checksums; nothing was changed (--update takes them)" >&2
  exit 1
fi

# Put the results in place and say what changed.
changed=0
while IFS= read -r -d '' f; do
  rel=${f#"$out/"}
  dest="$here/$rel"
  if [ ! -e "$dest" ]; then
    echo "new       $rel"
    changed=$((changed + 1))
  elif ! cmp -s "$f" "$dest"; then
    echo "changed   $rel  sha256 $(sha256 "$f")"
    changed=$((changed + 1))
  fi
  mkdir -p "$(dirname "$dest")"
  cp "$f" "$dest"
done < <(find "$out" -type f -print0 | sort -z)
while IFS= read -r -d '' f; do
  rel=${f#"$here/"}
  [ -e "$out/$rel" ] || echo "not in SOURCES.md, left as is: $rel"
done < <(find "$here/webhooks" -name '*.json' -print0 | sort -z)
if [ "$changed" -eq 0 ]; then
  echo "every file is as committed"
else
  echo "$changed file(s) changed: update the sizes and checksums in SOURCES.md, then run go test ./..."
fi
