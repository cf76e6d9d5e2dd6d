package ghfake

import (
	"bytes"
	"net/http"
)

// bufferWriter is a ResponseWriter that keeps the answer for the fake itself: what a
// performed fault served before the client was told otherwise.
type bufferWriter struct {
	header http.Header
	Body   bytes.Buffer
	status int
}

func newBufferWriter() *bufferWriter { return &bufferWriter{header: http.Header{}} }

func (b *bufferWriter) Header() http.Header { return b.header }

func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.Body.Write(p)
}

func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
