package state

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleState() *model.State {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	return &model.State{
		Version: 1,
		Subject: "acme/widgets#7",
		Seq:     3,
		Runs: []*model.Run{{
			ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
			Status: model.RunWaiting, Stage: "ready", StartedAt: at, UpdatedAt: at,
			Stages: map[string]*model.StageRun{"ready": {
				Status: model.StageWaiting, Attempt: 1, EnteredAt: at,
				Results: []model.GateResult{{Check: "ci_status", Status: model.GatePending, Message: "check \"test\" is running"}},
			}},
			History: []model.Transition{{At: at, Actor: "dev", To: "ready", Why: "pull_request.opened"}},
		}},
	}
}

// rawMarker wraps raw JSON as a marker bound to no comment, for payloads Encode would
// never write.
func rawMarker(t testing.TB, js string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write([]byte(js))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return sealMarker("", 0, base64.StdEncoding.EncodeToString(buf.Bytes()))
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		st   *model.State
		wrap func(m string) string
	}{
		{name: "empty", st: &model.State{Version: 1}, wrap: func(m string) string { return m }},
		{name: "one run", st: sampleState(), wrap: func(m string) string { return m }},
		{name: "after rendered text", st: sampleState(), wrap: func(m string) string { return "### pipeline-action\n\ntext\n" + m }},
		{name: "with trailing newline", st: sampleState(), wrap: func(m string) string { return m + "\n" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Encode(tt.st)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(m, "<!-- pipeline-action:state v3 0 - "))
			assert.True(t, strings.HasSuffix(m, " -->"))
			assert.NotContains(t, m, "\n")
			got, found, err := Decode(tt.wrap(m))
			require.NoError(t, err)
			require.True(t, found)
			assert.Equal(t, tt.st, got)
		})
	}
}

func TestEncodeNil(t *testing.T) {
	_, err := Encode(nil)
	require.Error(t, err)
}

func TestDecodeNoMarker(t *testing.T) {
	for _, body := range []string{"", "LGTM", "<!-- some other tool -->", "<!-- pipeline-action:stat v1 x -->"} {
		st, found, err := Decode(body)
		require.NoError(t, err)
		assert.False(t, found)
		assert.Nil(t, st)
	}
}

func TestDecodeLastMarkerWins(t *testing.T) {
	fake, err := Encode(&model.State{Version: 1, Subject: "evil#1"})
	require.NoError(t, err)
	real, err := Encode(sampleState())
	require.NoError(t, err)
	st, found, err := Decode("quoted: " + fake + "\n" + real)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "acme/widgets#7", st.Subject)
}

func TestDecodeCorrupt(t *testing.T) {
	good, err := Encode(sampleState())
	require.NoError(t, err)
	fields := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(good, markerPrefix), markerSuffix))
	require.Len(t, fields, 5)
	head, payload := markerPrefix+"v3 0 - "+fields[3]+" ", fields[4]
	tests := []struct {
		name string
		body string
		want string
	}{
		{name: "unknown version", body: markerPrefix + "v5 0 - " + fields[3] + " " + payload + markerSuffix, want: `unsupported version "v5"`},
		{name: "older version", body: markerPrefix + "v1 " + payload + markerSuffix, want: `unsupported version "v1"`},
		{name: "no version", body: markerPrefix + "-->", want: "unsupported version"},
		{name: "unclosed", body: good[:len(good)-10], want: "no closing"},
		{name: "empty payload", body: head + "-->", want: "4 fields, want 5"},
		{name: "v2 without payload", body: markerPrefix + "v2 0 " + fields[3] + " -->", want: "3 fields, want 4"},
		{name: "bad id", body: markerPrefix + "v3 x1 - " + fields[3] + " " + payload + markerSuffix, want: "comment id"},
		{name: "negative id", body: markerPrefix + "v3 -1 - " + fields[3] + " " + payload + markerSuffix, want: "comment id"},
		{name: "bad commit", body: markerPrefix + "v3 0 abc " + fields[3] + " " + payload + markerSuffix, want: "not a commit id"},
		{name: "upper-case commit", body: markerPrefix + "v3 0 " + strings.Repeat("A", 40) + " " + fields[3] + " " + payload + markerSuffix, want: "not a commit id"},
		{name: "bad binding", body: markerPrefix + "v3 0 - abc " + payload + markerSuffix, want: "binding"},
		{name: "not base64", body: head + "!!!! -->", want: "base64"},
		{name: "not gzip", body: head + base64.StdEncoding.EncodeToString([]byte("{}")) + markerSuffix, want: "gzip"},
		{name: "truncated", body: head + payload[:len(payload)/2] + markerSuffix, want: "decoding state marker"},
		{name: "not json", body: rawMarker(t, "nope"), want: "json"},
		{name: "null", body: rawMarker(t, "null"), want: "null state"},
		{name: "trailing data", body: rawMarker(t, `{"version":1}{}`), want: "data after"},
		{name: "wrong state version", body: rawMarker(t, `{"version":2}`), want: "state version 2"},
		{name: "null run", body: rawMarker(t, `{"version":1,"runs":[null]}`), want: "run 0 is null"},
		{name: "null stage", body: rawMarker(t, `{"version":1,"runs":[{"id":"r","stages":{"a":null}}]}`), want: `stage "a" is null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, found, err := Decode("hello\n" + tt.body)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, found, "a corrupt marker is still a marker")
			assert.Nil(t, st)
		})
	}
}

func TestDecodeNullStages(t *testing.T) {
	st, found, err := Decode(rawMarker(t, `{"version":1,"runs":[{"id":"r"}]}`))
	require.NoError(t, err)
	require.True(t, found)
	assert.NotNil(t, st.Runs[0].Stages, "the engine may write into it")
}

func FuzzDecode(f *testing.F) {
	good, err := Encode(sampleState())
	require.NoError(f, err)
	f.Add(good)
	f.Add("")
	f.Add(markerPrefix + "v1 -->")
	f.Add(markerPrefix + "v2 0 abc -->")
	f.Add(markerPrefix + "v3 abc -->")
	f.Add(markerPrefix + "v5 abc -->")
	f.Add(rawMarker(f, `{"version":1,"runs":[{"stages":{"a":null}}]}`))
	f.Fuzz(func(t *testing.T, body string) {
		st, found, err := Decode(body)
		if err != nil {
			assert.Nil(t, st)
			assert.True(t, found)
			return
		}
		if !found {
			assert.Nil(t, st)
			return
		}
		again, err := Encode(st)
		require.NoError(t, err)
		st2, _, err := Decode(again)
		require.NoError(t, err)
		assert.Equal(t, st.Seq, st2.Seq)
	})
}

func TestHuman(t *testing.T) {
	marker, err := Encode(&model.State{Version: 1})
	require.NoError(t, err)
	assert.Equal(t, "### pipeline-action\nwaiting", Human("### pipeline-action\nwaiting\n\n"+marker))
	assert.Equal(t, "no marker here", Human("no marker here\n"))
	assert.True(t, HasMarker("x "+marker))
	assert.False(t, HasMarker("<!-- pipeline-action:stat v1 -->"))
}
