package loopback

import (
	"bytes"
	"net/http"
)

// BufferWriter is a ResponseWriter that keeps the answer for the server itself: what a
// performed fault served before the client was told otherwise.
type BufferWriter struct {
	header http.Header
	Body   bytes.Buffer
	status int
}

// NewBufferWriter is an empty BufferWriter.
func NewBufferWriter() *BufferWriter { return &BufferWriter{header: http.Header{}} }

func (b *BufferWriter) Header() http.Header { return b.header }

func (b *BufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.Body.Write(p)
}

func (b *BufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
