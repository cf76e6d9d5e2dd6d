package ghapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// graphqlPeek is how much of a 200 GraphQL answer is looked at for a RATE_LIMITED error:
// such an answer is an error alone, far shorter, and starts with it.
const graphqlPeek = 4 << 10

// graphqlRateLimited tells GraphQL's rate limit, which GitHub answers with a 200 whose
// errors carry type RATE_LIMITED (and, when the hourly points are spent,
// x-ratelimit-remaining: 0 with the reset). It is waited out as a REST limit is: until
// the reset when one is given, else as a secondary limit. Nil when resp is none; the body
// is put back for the caller either way.
func graphqlRateLimited(resp *http.Response) *rateLimit {
	if resp.StatusCode != http.StatusOK || resp.Request == nil || !isGraphQL(resp.Request) {
		return nil
	}
	head := make([]byte, graphqlPeek)
	n, err := io.ReadFull(resp.Body, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), errReader{err}), resp.Body}
		return nil
	}
	if !bytes.Contains(head, []byte("RATE_LIMITED")) || n == graphqlPeek {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		return nil
	}
	resp.Body = readCloser{bytes.NewReader(head), resp.Body}
	var body struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(head, &body) != nil || (len(body.Data) > 0 && string(body.Data) != "null") {
		return nil // an answer with data is no refusal, whatever its errors
	}
	for _, e := range body.Errors {
		if e.Type != "RATE_LIMITED" {
			continue
		}
		l := &rateLimit{message: e.Message, secondary: true}
		if resp.Header.Get("X-RateLimit-Remaining") == "0" {
			if s, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
				l.reset, l.secondary = time.Unix(s, 0), false
			}
		}
		return l
	}
	return nil
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// errReader returns err once what came before it is read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
