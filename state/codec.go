package state

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// The marker is an HTML comment, invisible in the rendered PR comment:
//
//	<!-- pipeline-action:state v3 <comment id> <commit> <binding> <base64(gzip(JSON of engine.State))> -->
//
// It binds the state to the comment that holds it: the comment id is the comment's own
// (so a marker copied into another comment does not verify), and binding is the hex
// SHA-256 of the version, the id, the commit, the payload and the text before the
// marker (so a changed status text or a spliced payload does not verify). The binding
// holds no secret: it proves nothing about who wrote it, only that the parts belong
// together; who wrote and last edited the comment comes from GitHub (see Check).
//
// commit is the state-branch commit whose file the state matches ("-" when it matches
// none: the branch could not be written), so that a lost or reset branch is told from
// a subject never stored there. v2, written before the state branch, has no commit;
// it is still read.
//
// v4 is v3 signed with the state key (Keys): one more field, the HMAC-SHA256 with the key
// of what the binding covers, after the binding:
//
//	<!-- pipeline-action:state v4 <comment id> <commit> <binding> <hmac> <payload> -->
//
// The action writes v4 only when a key is set, and then trusts nothing else.
const (
	markerPrefix  = "<!-- pipeline-action:state "
	markerSuffix  = " -->"
	markerVersion = "v3"
	markerV2      = "v2"
	markerV4      = "v4"
	noCommit      = "-"
	stateVersion  = 1
	// maxIDDigits is the longest comment id in decimal (int64); Body keeps room for it.
	maxIDDigits = 19
	// maxCommitLen is the longest commit id (SHA-256 in hex); Body keeps room for it.
	maxCommitLen = 64
	// macRoom is what the HMAC of a v4 marker adds (a space and 64 hex digits); Body
	// keeps room for it.
	macRoom = 65
)

// maxStateJSON caps the decompressed payload. A comment holds at most 65,536
// characters; no honest state comes near this, a gzip bomb would.
const maxStateJSON = 16 << 20

// Encode returns the marker line holding st, bound to no comment (id 0) and to no
// text before it: no leading or trailing newline. Body and Bind write the bound form.
func Encode(st *model.State) (string, error) {
	payload, err := encodePayload(st)
	if err != nil {
		return "", err
	}
	return sealMarker("", 0, payload), nil
}

func encodePayload(st *model.State) (string, error) {
	if st == nil {
		return "", errors.New("encoding state: nil state")
	}
	js, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("encoding state: %w", err)
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return "", fmt.Errorf("encoding state: %w", err)
	}
	if _, err := zw.Write(js); err != nil {
		return "", fmt.Errorf("encoding state: %w", err)
	}
	if err := zw.Close(); err != nil {
		return "", fmt.Errorf("encoding state: %w", err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// sealMarker returns the marker for payload, bound to comment id and to before, the
// text the marker follows, matching no commit.
func sealMarker(before string, id int64, payload string) string {
	return seal(before, id, "", payload)
}

// seal returns the marker for payload, bound to comment id and to before, matching
// the state-branch commit commit ("" for none).
func seal(before string, id int64, commit, payload string) string {
	return sealKeyed(before, id, commit, payload, nil)
}

// sealKeyed is seal, signed with the current key of k (a v4 marker) when one is set.
func sealKeyed(before string, id int64, commit, payload string, k *Keys) string {
	if commit == "" {
		commit = noCommit
	}
	version := markerVersion
	if k.Set() {
		version = markerV4
	}
	msg := bindingMessage(version, before, id, commit, payload)
	sum := sha256.Sum256(msg)
	fields := version + " " + strconv.FormatInt(id, 10) + " " + commit + " " + hex.EncodeToString(sum[:])
	if k.Set() {
		fields += " " + k.sign(msg)
	}
	return markerPrefix + fields + " " + payload + markerSuffix
}

// binding is the digest that ties a marker's parts to each other and to the text before it.
func binding(version, before string, id int64, commit, payload string) string {
	sum := sha256.Sum256(bindingMessage(version, before, id, commit, payload))
	return hex.EncodeToString(sum[:])
}

// bindingMessage is what a marker's binding (and, in v4, its HMAC) covers.
func bindingMessage(version, before string, id int64, commit, payload string) []byte {
	var b bytes.Buffer
	if version == markerV2 {
		fmt.Fprintf(&b, "pipeline-action:state %s\x00%d\x00%d\x00%s\x00", version, id, len(payload), payload)
	} else {
		fmt.Fprintf(&b, "pipeline-action:state %s\x00%d\x00%s\x00%d\x00%s\x00", version, id, commit, len(payload), payload)
	}
	b.WriteString(before)
	return b.Bytes()
}

// marker is a parsed state marker.
type marker struct {
	start   int    // where it begins in the body: the text before it is body[:start]
	end     int    // just after its closing "-->"
	version string // "v4", "v3" or "v2"; anything else fails before the fields below are read
	id      int64  // the comment the marker says it is in; 0 before it is bound
	commit  string // the state-branch commit; "-" for none (always, in v2)
	binding string
	mac     string // v4: the HMAC with the state key; "" otherwise
	payload string
}

// verifies reports whether the marker's binding matches its parts and before.
func (m marker) verifies(before string) bool {
	return m.binding == binding(m.version, before, m.id, m.commit, m.payload)
}

// Commit is the state-branch commit the marker says its state matches; "" for none.
func (m marker) Commit() string {
	if m.commit == noCommit {
		return ""
	}
	return m.commit
}

// parseMarker finds the last state marker in body and reads its fields. found is
// false, and the error nil, when there is none.
func parseMarker(body string) (m marker, found bool, err error) {
	i := strings.LastIndex(body, markerPrefix)
	if i < 0 {
		return marker{}, false, nil
	}
	rest := body[i+len(markerPrefix):]
	end := strings.Index(rest, "-->")
	if end < 0 {
		return marker{}, true, errors.New("decoding state marker: no closing \"-->\"")
	}
	m = marker{start: i, end: i + len(markerPrefix) + end + len("-->"), commit: noCommit}
	fields := strings.Fields(rest[:end])
	if len(fields) > 0 {
		m.version = fields[0]
	}
	switch m.version {
	case markerV4:
		if len(fields) != 6 {
			return m, true, fmt.Errorf("decoding state marker: %d fields, want 6 (version, comment id, commit, binding, hmac, payload)", len(fields))
		}
		if !validCommit(fields[2]) {
			return m, true, fmt.Errorf("decoding state marker: commit %q is not a commit id", fields[2])
		}
		if !isHexSum(fields[4]) {
			return m, true, fmt.Errorf("decoding state marker: hmac %q is not a SHA-256 in hex", fields[4])
		}
		m.commit, m.mac = fields[2], fields[4]
		fields = []string{fields[0], fields[1], fields[3], fields[5]}
	case markerVersion:
		if len(fields) != 5 {
			return m, true, fmt.Errorf("decoding state marker: %d fields, want 5 (version, comment id, commit, binding, payload)", len(fields))
		}
		if !validCommit(fields[2]) {
			return m, true, fmt.Errorf("decoding state marker: commit %q is not a commit id", fields[2])
		}
		m.commit = fields[2]
		fields = append(fields[:2], fields[3:]...)
	case markerV2:
		if len(fields) != 4 {
			return m, true, fmt.Errorf("decoding state marker: %d fields, want 4 (version, comment id, binding, payload)", len(fields))
		}
	default:
		return m, true, fmt.Errorf("decoding state marker: unsupported version %q (this action reads %q, %q and %q; another version of the action wrote it)", m.version, markerV4, markerVersion, markerV2)
	}
	if m.id, err = strconv.ParseInt(fields[1], 10, 64); err != nil || m.id < 0 || fields[1] != strconv.FormatInt(m.id, 10) {
		return m, true, fmt.Errorf("decoding state marker: comment id %q is not a number", fields[1])
	}
	if b, err := hex.DecodeString(fields[2]); err != nil || len(b) != sha256.Size || fields[2] != strings.ToLower(fields[2]) {
		return m, true, fmt.Errorf("decoding state marker: binding %q is not a SHA-256 in hex", fields[2])
	}
	m.binding, m.payload = fields[2], fields[3]
	return m, true, nil
}

// validCommit reports whether c is "-" or a commit id: 40 (SHA-1) or 64 (SHA-256)
// lower-case hex digits.
func validCommit(c string) bool {
	if c == noCommit {
		return true
	}
	if len(c) != 40 && len(c) != 64 {
		return false
	}
	_, err := hex.DecodeString(c)
	return err == nil && c == strings.ToLower(c)
}

// Decode finds the state marker in a comment body and decodes it. found is false,
// and the error nil, when the body holds no marker. A marker that is present but
// cannot be decoded (truncated, edited, an unknown version) is an error: a caller
// must never mistake it for "no state yet".
//
// Decode does not say whether the state can be trusted: Check does.
//
// When the body holds several markers the last one counts: Body writes the marker
// after everything rendered.
func Decode(body string) (st *model.State, found bool, err error) {
	m, found, err := parseMarker(body)
	if !found || err != nil {
		return nil, found, err
	}
	st, err = decodePayload(m.payload)
	if err != nil {
		return nil, true, fmt.Errorf("decoding state marker: %w", err)
	}
	return st, true, nil
}

func decodePayload(payload string) (*model.State, error) {
	if payload == "" {
		return nil, errors.New("empty payload")
	}
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("base64: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	js, err := io.ReadAll(io.LimitReader(zr, maxStateJSON+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if len(js) > maxStateJSON {
		return nil, fmt.Errorf("state larger than %d bytes", maxStateJSON)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	var st *model.State
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("json: data after the state")
	}
	if st == nil {
		return nil, errors.New("json: null state")
	}
	if err := checkState(st); err != nil {
		return nil, err
	}
	return st, nil
}

// Human returns the part of a state comment's body people read: everything before the
// hidden marker (the whole body when it has none).
func Human(body string) string {
	if i := strings.LastIndex(body, markerPrefix); i >= 0 {
		body = body[:i]
	}
	return strings.TrimRight(body, "\n")
}

// HasMarker reports whether body carries a state marker.
func HasMarker(body string) bool { return strings.Contains(body, markerPrefix) }
