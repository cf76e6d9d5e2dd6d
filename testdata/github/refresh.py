#!/usr/bin/env python3
"""The post-processing of refresh.sh: it turns the downloaded public files into the ones kept here.

Subcommands (refresh.sh calls them; each reads and writes only the files it is given):

  table SOURCES.md
      Print the rows of the Markdown table of a SOURCES.md as tab-separated
      "file, source repository, source path, commit, sha256".
  sri FILE INTEGRITY
      Exit 1 unless FILE has the npm Subresource Integrity INTEGRITY ("sha512-<base64>").
  schema UPSTREAM OUT
      Copy GitHub's GraphQL schema, dropping the second declaration of a field declared twice in
      one type (upstream declares two fields of EnterpriseOwnerInfo twice, which spec-conforming
      parsers refuse). Prints each field removed.
  rest OCTOKIT_JSON GITHUB_JSON VERSION OUTDIR
      Extract operations.json and response-examples.json (the operations in OPERATIONS) from
      @octokit/openapi's generated/api.github.com.json, with Octokit's x-octokit keys removed and
      the parts Octokit overrides (RESTORED) taken from GitHub's own description GITHUB_JSON.

  selftest DIR
      Check offline, on the committed files in DIR, that "rest" and "schema" reproduce them from
      documents shaped like their sources.

Only the Python standard library is used.
"""

import base64
import copy
import hashlib
import json
import os
import re
import sys

# The REST operations the project checks against, in the order operations.json lists them.
OPERATIONS = [
    "pulls/get",
    "pulls/merge",
    "pulls/list-reviews",
    "pulls/request-reviewers",
    "pulls/update-branch",
    "issues/add-labels",
    "issues/remove-label",
    "issues/remove-all-labels",
    "issues/set-labels",
    "issues/create-comment",
    "issues/update-comment",
    "issues/list-comments",
    "issues/get-comment",
    "issues/add-assignees",
    "issues/update",
    "repos/get-content",
    "repos/create-or-update-file-contents",
    "git/get-ref",
    "git/update-ref",
    "git/create-ref",
    "git/create-blob",
    "git/create-tree",
    "git/create-commit",
    "checks/list-for-ref",
    "checks/list-suites-for-ref",
    "repos/get-combined-status-for-ref",
    "actions/create-workflow-dispatch",
    "repos/create-dispatch-event",
    "repos/get-collaborator-permission-level",
    # Added later, same source and extraction.
    "issues/create",
    "issues/get",
    "issues/remove-assignees",
    "issues/delete-comment",
    "issues/list-labels-on-issue",
    "git/delete-ref",
    "pulls/list",
    "pulls/create",
    "pulls/list-files",
    "pulls/create-review",
    "pulls/list-requested-reviewers",
    "pulls/remove-requested-reviewers",
    "actions/list-workflow-runs",
    "actions/list-workflow-runs-for-repo",
    "actions/get-workflow-run",
    "teams/list-members-in-org",
    "teams/get-membership-for-user-in-org",
    "repos/list-pull-requests-associated-with-commit",
    "repos/get",
    "repos/get-branch",
    "repos/compare-commits-with-basehead",
    "repos/create-commit-status",
    "checks/create",
    "reactions/create-for-issue-comment",
    "rate-limit/get",
    "repos/get-branch-rules",
    "actions/re-run-workflow-failed-jobs",
]

# Octokit's build (scripts/overrides/index.mjs in octokit/openapi) alters these parts of these
# operations; they are taken from GitHub's description instead.
RESTORED = {
    "issues/add-labels": ["requestBody"],
    "issues/set-labels": ["requestBody"],
    "pulls/request-reviewers": ["requestBody", "docs_url"],
}
RESTORED_NOTE = (
    "requestBody (and, for pulls/request-reviewers, docs_url) restored to the "
    "github/rest-api-description text; @octokit/openapi alters them in scripts/overrides/index.mjs"
)

DESCRIPTION_SOURCE = "github/rest-api-description: descriptions/api.github.com/api.github.com.json (MIT)"


def read_from(version):
    return (
        "npm package @octokit/openapi@%s, generated/api.github.com.json (GitHub's file plus "
        "Octokit's x-octokit keys and a few Octokit overrides; MIT)" % version
    )


HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def die(msg):
    print("refresh.py: " + msg, file=sys.stderr)
    sys.exit(1)


# --- table -----------------------------------------------------------------------------------------

TABLE_COLUMNS = ["file", "source repository", "source path", "commit", "sha256"]


def cell(s):
    return s.strip().strip("`").strip()


def table(path):
    """Yield the rows of the first Markdown table of path that has the TABLE_COLUMNS."""
    header = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("|"):
                if header is not None:
                    return
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                names = [c.lower() for c in cells]
                idx = {}
                for want in TABLE_COLUMNS:
                    for i, n in enumerate(names):
                        if n == want or (want == "commit" and n.startswith("commit")):
                            idx[want] = i
                            break
                if len(idx) == len(TABLE_COLUMNS):
                    header = idx
                continue
            if set(line) <= set("|- :"):
                continue
            row = {k: cell(cells[i]) for k, i in header.items()}
            m = re.search(r"\b[0-9a-f]{40}\b", row["commit"])
            if not m:
                die("%s: no commit in row %r" % (path, line))
            row["commit"] = m.group(0)
            yield row
    if header is None:
        die("%s: no table with columns %s" % (path, ", ".join(TABLE_COLUMNS)))


def cmd_table(path):
    rows = list(table(path))
    if not rows:
        die("%s: the table has no rows" % path)
    for r in rows:
        print("\t".join(r[k] for k in TABLE_COLUMNS))


# --- sri -------------------------------------------------------------------------------------------


def cmd_sri(path, integrity):
    algo, _, want = integrity.partition("-")
    if algo not in ("sha512", "sha384", "sha256", "sha1"):
        die("unknown integrity algorithm %r" % algo)
    with open(path, "rb") as f:
        got = base64.b64encode(hashlib.new(algo, f.read()).digest()).decode()
    if got != want:
        print("%s: integrity %s-%s, want %s" % (path, algo, got, integrity), file=sys.stderr)
        sys.exit(1)


# --- schema ----------------------------------------------------------------------------------------

TYPE_START = re.compile(r"^(type|interface|input)\s+(\w+)\b.*\{\s*$")
FIELD_NAME = re.compile(r"^  (\w+)")


def field_chunks(body):
    """Split the lines of a type's body into (name, first, end) chunks: a field with its
    description and arguments, lines[first:end]. Blank lines between fields belong to no chunk."""
    chunks = []
    i, n = 0, len(body)
    while i < n:
        line = body[i]
        if line.strip() == "":
            i += 1
            continue
        first = i
        stripped = line.strip()
        if stripped.startswith('"""'):
            # A block description: one line ("""text""") or up to the closing """.
            if not (len(stripped) > 3 and stripped.endswith('"""')):
                i += 1
                while i < n and body[i].strip() != '"""':
                    i += 1
            i += 1
            line = body[i]
        elif stripped.startswith('"'):
            i += 1
            line = body[i]
        m = FIELD_NAME.match(line)
        if not m:
            raise ValueError("not a field: %r" % line)
        name = m.group(1)
        if "(" in line and ")" not in line.split("(", 1)[1]:
            # Arguments over several lines, closed by a line "  ): Type".
            i += 1
            while i < n and not body[i].startswith("  )"):
                i += 1
        i += 1
        chunks.append((name, first, i))
    return chunks


def dedupe_schema(lines):
    """Return lines without the second and later declarations of a field in one type, and the
    list of "Type.field" removed."""
    out, removed = [], []
    i, n = 0, len(lines)
    while i < n:
        m = TYPE_START.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        typ = m.group(2)
        end = i + 1
        while end < n and lines[end].rstrip("\n") != "}":
            end += 1
        body = [l.rstrip("\n") for l in lines[i + 1 : end]]
        drop = set()
        seen = set()
        for name, first, last in field_chunks(body):
            if name in seen:
                removed.append("%s.%s" % (typ, name))
                drop.update(range(first, last))
                # and the blank line that separated it from the field before
                if first > 0 and body[first - 1].strip() == "" and (first - 1) not in drop:
                    drop.add(first - 1)
            seen.add(name)
        out.append(lines[i])
        out.extend(l for k, l in enumerate(lines[i + 1 : end]) if k not in drop)
        i = end
    return out, removed


def cmd_schema(src, dst):
    with open(src, encoding="utf-8", newline="") as f:
        lines = f.readlines()
    out, removed = dedupe_schema(lines)
    for r in removed:
        print("removed the second declaration of %s" % r)
    print("%d lines removed" % (len(lines) - len(out)))
    with open(dst, "w", encoding="utf-8", newline="") as f:
        f.writelines(out)


# --- rest ------------------------------------------------------------------------------------------


def pointer(doc, ref):
    if not ref.startswith("#/"):
        die("not a local $ref: %s" % ref)
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[part]
    return node


def expand(doc, node, stack=()):
    """node with every $ref replaced by what it points at, recursively."""
    if isinstance(node, dict):
        if "$ref" in node:
            ref = node["$ref"]
            if ref in stack:
                die("$ref cycle: %s" % " -> ".join(stack + (ref,)))
            return expand(doc, pointer(doc, ref), stack + (ref,))
        return {k: expand(doc, v, stack) for k, v in node.items()}
    if isinstance(node, list):
        return [expand(doc, v, stack) for v in node]
    return copy.deepcopy(node)


def strip_key(node, key):
    if isinstance(node, dict):
        return {k: strip_key(v, key) for k, v in node.items() if k != key}
    if isinstance(node, list):
        return [strip_key(v, key) for v in node]
    return node


def index_operations(doc):
    ops = {}
    for path, item in doc["paths"].items():
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None or "operationId" not in op:
                continue
            ops[op["operationId"]] = (path, method, op, item)
    return ops


def parameters(doc, item, op):
    merged = []
    for p in item.get("parameters", []) + op.get("parameters", []):
        p = expand(doc, p)
        # An operation's parameter overrides the path's of the same name and location.
        merged = [q for q in merged if (q["name"], q["in"]) != (p["name"], p["in"])]
        merged.append(p)
    return [{k: p[k] for k in ("name", "in", "required", "description", "schema") if k in p} for p in merged]


def example_value(doc, ex):
    if "$ref" in ex:
        ex = pointer(doc, ex["$ref"])
    return copy.deepcopy(ex["value"])


def request_body(doc, op):
    rb = op.get("requestBody")
    if rb is None:
        return None
    if "$ref" in rb:
        rb = pointer(doc, rb["$ref"])
    content = {}
    for mt, m in rb.get("content", {}).items():
        out = {}
        if "schema" in m:
            out["schema"] = expand(doc, m["schema"])
        if "examples" in m:
            out["examples"] = {name: example_value(doc, ex) for name, ex in m["examples"].items()}
        content[mt] = out
    return {"required": rb.get("required", False), "content": content}


def responses(doc, op):
    out, examples = {}, {}
    for code, r in op.get("responses", {}).items():
        ref = None
        if "$ref" in r:
            ref = r["$ref"]
            r = pointer(doc, ref)
        o = {"description": r.get("description", "")}
        if ref:
            o["ref"] = ref
        if "headers" in r:
            o["headers"] = list(r["headers"].keys())
        if "content" in r:
            o["content"] = {}
            for mt, m in r["content"].items():
                o["content"][mt] = {"schema": copy.deepcopy(m["schema"])} if "schema" in m else {}
                for name, ex in m.get("examples", {}).items():
                    # ref is null for an example given inline; its value is kept as given, even
                    # when that is itself a $ref (as GitHub writes one example of issues/get).
                    e = {"ref": ex.get("$ref"), "value": example_value(doc, ex)}
                    examples.setdefault(code, {})[name] = e
        out[code] = o
    return out, examples


def operation(doc, ops, op_id):
    if op_id not in ops:
        die("operation %s not found" % op_id)
    path, method, op, item = ops[op_id]
    responses_out, examples = responses(doc, op)
    return {
        "operationId": op_id,
        "method": method.upper(),
        "path": path,
        "summary": op.get("summary", ""),
        "docs_url": op.get("externalDocs", {}).get("url", ""),
        "deprecated": op.get("deprecated", False),
        "parameters": parameters(doc, item, op),
        "requestBody": request_body(doc, op),
        "responses": responses_out,
        "x-github": copy.deepcopy(op.get("x-github", {})),
    }, examples


def extract_rest(octokit, github, version):
    ops = index_operations(octokit)
    gh_ops = index_operations(github)
    operations, examples = [], {}
    for op_id in OPERATIONS:
        o, ex = operation(octokit, ops, op_id)
        if op_id in RESTORED:
            g, _ = operation(github, gh_ops, op_id)
            for key in RESTORED[op_id]:
                o[key] = g[key]
            o["note"] = RESTORED_NOTE
        operations.append(strip_key(o, "x-octokit"))
        if ex:
            examples[op_id] = strip_key(ex, "x-octokit")
    ops_doc = {
        "description": "Extract of selected operations from GitHub's REST API OpenAPI description for api.github.com.",
        "openapi": octokit.get("openapi", ""),
        "source": {
            "description": DESCRIPTION_SOURCE,
            "read_from": read_from(version),
            "changes": "x-octokit keys removed; the request bodies of issues/add-labels, issues/set-labels and "
            "pulls/request-reviewers, and the docs_url of pulls/request-reviewers, restored to the "
            "github/rest-api-description text (see each operation note)",
            "see": "SOURCES.md",
        },
        "operations": operations,
    }
    examples_doc = {
        "description": "Response examples from GitHub's REST API OpenAPI description (components/examples and "
        "inline examples), by operationId, then status code, then example name.",
        "source": {
            "description": DESCRIPTION_SOURCE,
            "read_from": read_from(version),
            "see": "SOURCES.md",
        },
        "examples": examples,
    }
    return ops_doc, examples_doc


def write_json(path, obj):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(obj, indent=2) + "\n")


def cmd_rest(octokit_path, github_path, version, outdir):
    with open(octokit_path, encoding="utf-8") as f:
        octokit = json.load(f)
    with open(github_path, encoding="utf-8") as f:
        github = json.load(f)
    ops_doc, examples_doc = extract_rest(octokit, github, version)
    write_json(os.path.join(outdir, "operations.json"), ops_doc)
    write_json(os.path.join(outdir, "response-examples.json"), examples_doc)
    print("%d operations, %d with response examples" % (len(ops_doc["operations"]), len(examples_doc["examples"])))

# --- selftest --------------------------------------------------------------------------------------


def shaped_like_upstream(ops_doc, examples, octokit):
    """An OpenAPI document shaped like @octokit/openapi's (octokit) or GitHub's description, built
    from the committed extract: shared parameters and responses as $refs, response examples as
    $refs to components/examples, keys the extraction drops, and for Octokit its x-octokit keys and
    altered versions of the RESTORED parts."""
    doc = {"openapi": ops_doc["openapi"], "paths": {}, "components": {"parameters": {}, "responses": {}, "examples": {}, "schemas": {}}}
    comp = doc["components"]
    for o in ops_doc["operations"]:
        params = []
        for p in o["parameters"]:
            q = {k: p[k] for k in ("name", "description", "in", "required", "schema") if k in p}
            if p["name"] in ("owner", "repo"):
                comp["parameters"][p["name"]] = q
                params.append({"$ref": "#/components/parameters/" + p["name"]})
            else:
                q["example"] = "dropped"
                params.append(q)
        op = {
            "summary": o["summary"],
            "description": "dropped",
            "tags": ["dropped"],
            "operationId": o["operationId"],
            "externalDocs": {"description": "API method documentation", "url": o["docs_url"]},
            "parameters": params,
        }
        if o["deprecated"]:
            op["deprecated"] = True
        if o["requestBody"] is not None:
            rb = copy.deepcopy(o["requestBody"])
            if not rb["required"]:
                del rb["required"]
            for m in rb["content"].values():
                m["examples"] = {k: {"summary": "dropped", "value": v} for k, v in m["examples"].items()}
            if octokit and "requestBody" in RESTORED.get(o["operationId"], []):
                rb["content"]["application/json"]["schema"] = {"type": "object", "description": "altered"}
            op["requestBody"] = rb
        if octokit and "docs_url" in RESTORED.get(o["operationId"], []):
            op["externalDocs"]["url"] = "https://example.com/altered"
        op["responses"] = {}
        for code, r in o["responses"].items():
            body = {"description": r["description"]}
            if "content" in r:
                body["content"] = copy.deepcopy(r["content"])
                for m in body["content"].values():
                    for name, e in examples.get(o["operationId"], {}).get(code, {}).items():
                        if e["ref"] is None:
                            ex = {"value": e["value"]}
                        else:
                            comp["examples"][e["ref"].split("/")[-1]] = {"summary": "dropped", "value": e["value"]}
                            ex = {"$ref": e["ref"]}
                        m.setdefault("examples", {})[name] = ex
            if "headers" in r:
                body["headers"] = {h: {"schema": {"type": "string"}} for h in r["headers"]}
            if "ref" in r:
                comp["responses"][r["ref"].split("/")[-1]] = body
                op["responses"][code] = {"$ref": r["ref"]}
            else:
                op["responses"][code] = body
        op["x-github"] = copy.deepcopy(o["x-github"])
        if octokit:
            op["x-octokit"] = {"changes": []}
        doc["paths"].setdefault(o["path"], {})[o["method"].lower()] = op
    doc["paths"]["/"] = {"get": {"operationId": "meta/root", "responses": {}}}
    return doc


def cmd_selftest(dir):
    """Check offline that the post-processing reproduces the committed files: the REST extract
    from documents shaped like its sources, the schema from a copy with two fields declared twice."""
    ok = True
    with open(os.path.join(dir, "rest", "operations.json"), encoding="utf-8") as f:
        ops_text = f.read()
    with open(os.path.join(dir, "rest", "response-examples.json"), encoding="utf-8") as f:
        ex_text = f.read()
    ops_doc, ex_doc = json.loads(ops_text), json.loads(ex_text)
    if [o["operationId"] for o in ops_doc["operations"]] != OPERATIONS:
        print("selftest: OPERATIONS is not the list of operations.json", file=sys.stderr)
        ok = False
    version = re.search(r"@octokit/openapi@([^,\s]+)", ops_doc["source"]["read_from"]).group(1)
    octokit = shaped_like_upstream(ops_doc, ex_doc["examples"], True)
    github = shaped_like_upstream(ops_doc, ex_doc["examples"], False)
    # a $ref inside a request body is expanded
    body = github["paths"]["/repos/{owner}/{repo}/issues/{issue_number}/labels"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    github["components"]["schemas"]["labels-array"] = schema["oneOf"][1]
    schema["oneOf"][1] = {"$ref": "#/components/schemas/labels-array"}
    got_ops, got_ex = extract_rest(octokit, github, version)
    for name, got, want in (("operations.json", got_ops, ops_text), ("response-examples.json", got_ex, ex_text)):
        if json.dumps(got, indent=2) + "\n" != want:
            print("selftest: rest/%s is not reproduced" % name, file=sys.stderr)
            ok = False

    with open(os.path.join(dir, "graphql", "schema.graphql"), encoding="utf-8", newline="") as f:
        lines = f.readlines()
    out, removed = dedupe_schema(lines)
    if out != lines or removed:
        print("selftest: the committed schema declares a field twice: %s" % removed, file=sys.stderr)
        ok = False
    # Upstream declares repositoryDeployKeySetting and repositoryDeployKeySettingOrganizations of
    # EnterpriseOwnerInfo a second time, with a description of team discussions.
    first = next(k for k, l in enumerate(lines) if l.startswith("  repositoryDeployKeySetting:")) - 3
    end = next(k for k, l in enumerate(lines) if l.startswith("  repositoryDeployKeySettingOrganizations("))
    while not lines[end].startswith("  ):"):
        end += 1
    dup = ["\n"] + [l.replace("deploy keys", "team discussions") for l in lines[first : end + 1]]
    upstream = lines[: end + 1] + dup + lines[end + 1 :]
    out, removed = dedupe_schema(upstream)
    want = ["EnterpriseOwnerInfo.repositoryDeployKeySetting", "EnterpriseOwnerInfo.repositoryDeployKeySettingOrganizations"]
    if out != lines or removed != want or len(upstream) - len(out) != 40:
        print("selftest: the schema's duplicate fields are not removed as upstream needs", file=sys.stderr)
        ok = False
    if not ok:
        sys.exit(1)
    print("selftest: the post-processing reproduces rest/*.json and graphql/schema.graphql")


def main(argv):
    commands = {"selftest": (cmd_selftest, 1), "table": (cmd_table, 1), "sri": (cmd_sri, 2), "schema": (cmd_schema, 2), "rest": (cmd_rest, 4)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    fn, _ = commands[argv[1]]
    fn(*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
