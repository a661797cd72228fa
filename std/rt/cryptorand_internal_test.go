package rt

import (
	cryptorand "crypto/rand"
	"testing"
	"testing/cryptotest"
)

// TestCryptoSourceLayout checks that the source SetGlobalRandom sets has
// the layout cryptoSource reseeds in place: otherwise each execution
// calls SetGlobalRandom again, and adds a cleanup to the test.
func TestCryptoSourceLayout(t *testing.T) {
	cryptotest.SetGlobalRandom(t, 1)
	if gen, mu := lockedChaCha8(cryptorand.Reader); gen == nil || mu == nil {
		t.Fatalf("the reader SetGlobalRandom set (%T) is not of the known layout", cryptorand.Reader)
	}
}
