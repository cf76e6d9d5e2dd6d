package webhook

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMaskerMasksEverySecretWhereverTheAnswerRepeatsIt(t *testing.T) {
	m := NewMasker([]string{"s3cret", "", "s3cret-long", "4711"})
	body := []byte(`{
	  "headers": {"Authorization": "Bearer s3cret-long", "X-Key": "S3CRET"},
	  "escaped": "\u0073\u0033cret and s3cret\/x",
	  "s3cret": ["nested", {"deep": "a s3cret b"}],
	  "number": 4711, "other": 12.5, "big": 123456789012345678901234567890,
	  "ok": true, "none": null}`)
	v, ok := m.JSON(body)
	require.True(t, ok)
	assert.Equal(t, map[string]any{
		"headers": map[string]any{"Authorization": "Bearer ***", "X-Key": "***"},
		"escaped": "*** and ***/x",
		"***":     []any{"nested", map[string]any{"deep": "a *** b"}},
		"number":  "***", "other": 12.5, "big": 1.2345678901234568e+29,
		"ok": true, "none": nil,
	}, v)
}

func TestMaskerRefusesWhatIsNotOneJSONValue(t *testing.T) {
	m := NewMasker([]string{"s3cret"})
	for _, body := range []string{"", "s3cret", `{"a":1} {"b":2}`, `{"a":1} trailing`, `{"a":`} {
		v, ok := m.JSON([]byte(body))
		assert.False(t, ok, body)
		assert.Nil(t, v, body)
	}
}

func TestMaskerWithoutSecretsChangesNothing(t *testing.T) {
	v, ok := NewMasker(nil).JSON([]byte(`{"a":"b","n":7}`))
	require.True(t, ok)
	assert.Equal(t, map[string]any{"a": "b", "n": 7.0}, v)
	assert.Equal(t, "a.b*c", NewMasker([]string{""}).String("a.b*c"))
	assert.Equal(t, "x***y", NewMasker([]string{"a.b*c"}).String("xa.b*cy"), "a secret is matched literally")
	assert.Equal(t, "aXbc", NewMasker([]string{"a.b*c"}).String("aXbc"))
}
