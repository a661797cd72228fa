// This file makes crypto/rand repeat itself from one execution to the
// next: its bytes, and those every implicit source of the crypto packages
// draws (uuid.New, for one), come from a stream that each execution
// starts afresh from its seed.

package rt

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	mathrand "math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"testing/cryptotest"
	"unsafe"

	"github.com/weft-go/weft/trace"
)

// cryptoSource is crypto/rand's source during the exploration of a test.
//
// Go's crypto/rand draws from the operating system, so that a body that
// takes a map's keys (uuid.New) or any choice from it behaves otherwise
// in every execution, and weft's determinism check stops the exploration.
// Since Go 1.26, testing/cryptotest.SetGlobalRandom sets a deterministic
// source for crypto/rand and the crypto packages for the rest of a test,
// one that is not parallel: any sequence of bytes is one crypto/rand may
// give. reset sets it at the start of each execution, seeded with the
// execution's seed. SetGlobalRandom adds a cleanup to the test each time
// it is called, so the source it set is reseeded in place where its
// layout is the known one (a mutex and a *math/rand/v2.ChaCha8); where
// it is not, SetGlobalRandom is called again.
//
// A parallel test keeps Go's crypto/rand (SetGlobalRandom refuses it: the
// source is the process's, and the parallel tests that run beside it
// would draw from it too), as does a build against the Go Cryptographic
// Module v1.0.0, which lacks the testing source.
type cryptoSource struct {
	t   *testing.T
	off bool // crypto/rand stays Go's
	// reader is the crypto/rand.Reader SetGlobalRandom set, and stream
	// and mu its generator and lock (nil if its layout is not the known
	// one).
	reader any
	stream *mathrand.ChaCha8
	mu     *sync.Mutex
}

// reset starts crypto/rand's stream afresh from seed.
func (c *cryptoSource) reset(seed int64) {
	if c.off {
		return
	}
	s := trace.Mix(uint64(seed) ^ 0x63727970746f)
	if c.stream != nil && any(cryptorand.Reader) == c.reader {
		var key [32]byte
		binary.LittleEndian.PutUint64(key[:8], s)
		c.mu.Lock()
		c.stream.Seed(key)
		c.mu.Unlock()
		return
	}
	if !setGlobalRandom(c.t, s) {
		c.off = true
		return
	}
	c.reader = cryptorand.Reader
	c.stream, c.mu = lockedChaCha8(cryptorand.Reader)
}

// setGlobalRandom calls cryptotest.SetGlobalRandom(t, seed) and reports
// whether it set the source: it panics for a parallel test and for the
// Go Cryptographic Module v1.0.0, before it changes anything.
func setGlobalRandom(t *testing.T, seed uint64) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	cryptotest.SetGlobalRandom(t, seed)
	return true
}

// lockedChaCha8 returns the generator and the lock of r, the reader
// SetGlobalRandom sets (a pointer to a struct of an embedded sync.Mutex
// and a field r of type *math/rand/v2.ChaCha8), or nils if r is not of
// that layout.
func lockedChaCha8(r any) (*mathrand.ChaCha8, *sync.Mutex) {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, nil
	}
	e := v.Elem()
	mu, gen := e.FieldByName("Mutex"), e.FieldByName("r")
	if !mu.IsValid() || mu.Type() != reflect.TypeFor[sync.Mutex]() ||
		!gen.IsValid() || gen.Type() != reflect.TypeFor[*mathrand.ChaCha8]() || gen.IsNil() {
		return nil, nil
	}
	return (*mathrand.ChaCha8)(gen.UnsafePointer()), (*sync.Mutex)(unsafe.Pointer(mu.UnsafeAddr()))
}
