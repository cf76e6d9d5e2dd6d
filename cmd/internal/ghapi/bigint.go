package ghapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// bigInt is GraphQL's BigInt scalar: GitHub serialises it as a string ("5000000001"),
// since it may exceed 32 bits; a bare number is accepted too. Database ids of comments
// and reviews passed 2^31 in 2024, beyond the Int of `databaseId`.
// https://docs.github.com/en/graphql/reference/scalars#bigint
type bigInt int64

// UnmarshalJSON reads a decimal string or number; null leaves the value as it is.
func (b *bigInt) UnmarshalJSON(data []byte) error {
	if bytes.Equal(data, []byte("null")) {
		return nil
	}
	s := string(data)
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("reading BigInt: %w", err)
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("reading BigInt %s: %w", data, err)
	}
	*b = bigInt(n)
	return nil
}
