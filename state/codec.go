// Package state keeps what pipeline-action remembers about a subject: the codec of
// the hidden marker in the state comment, the rendered status comment, and the
// stores that load and save state with optimistic concurrency.
package state

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// The marker is an HTML comment, invisible in the rendered PR comment:
//
//	<!-- pipeline-action:state v1 <base64(gzip(JSON of engine.State))> -->
const (
	markerPrefix  = "<!-- pipeline-action:state "
	markerSuffix  = " -->"
	markerVersion = "v1"
	stateVersion  = 1
)

// maxStateJSON caps the decompressed payload. A comment holds at most 65,536
// characters; no honest state comes near this, a gzip bomb would.
const maxStateJSON = 16 << 20

// Encode returns the marker line holding st: no leading or trailing newline.
func Encode(st *engine.State) (string, error) {
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
	return markerPrefix + markerVersion + " " + base64.StdEncoding.EncodeToString(buf.Bytes()) + markerSuffix, nil
}

// Decode finds the state marker in a comment body and decodes it. found is false,
// and the error nil, when the body holds no marker. A marker that is present but
// cannot be decoded (truncated, edited, an unknown version) is an error: a caller
// must never mistake it for "no state yet".
//
// When the body holds several markers the last one counts: Body writes the marker
// after everything rendered.
func Decode(body string) (st *engine.State, found bool, err error) {
	i := strings.LastIndex(body, markerPrefix)
	if i < 0 {
		return nil, false, nil
	}
	rest := body[i+len(markerPrefix):]
	end := strings.Index(rest, "-->")
	if end < 0 {
		return nil, true, errors.New("decoding state marker: no closing \"-->\"")
	}
	version, payload, ok := strings.Cut(strings.TrimSpace(rest[:end]), " ")
	if !ok {
		payload = ""
	}
	if version != markerVersion {
		return nil, true, fmt.Errorf("decoding state marker: unsupported version %q (this action reads %q; a newer action may have written it)", version, markerVersion)
	}
	st, err = decodePayload(strings.TrimSpace(payload))
	if err != nil {
		return nil, true, fmt.Errorf("decoding state marker: %w", err)
	}
	return st, true, nil
}

func decodePayload(payload string) (*engine.State, error) {
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
	var st *engine.State
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("json: data after the state")
	}
	if st == nil {
		return nil, errors.New("json: null state")
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("state version %d, want %d", st.Version, stateVersion)
	}
	for i, r := range st.Runs {
		if r == nil {
			return nil, fmt.Errorf("run %d is null", i)
		}
		if r.Stages == nil {
			r.Stages = map[string]*engine.StageRun{}
		}
		for id, sr := range r.Stages {
			if sr == nil {
				return nil, fmt.Errorf("run %q: stage %q is null", r.ID, id)
			}
		}
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
