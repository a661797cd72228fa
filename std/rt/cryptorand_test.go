package rt_test

import (
	cryptorand "crypto/rand"
	"io"
	"testing"

	"github.com/weft-go/weft/std/rt"
)

// initReader is crypto/rand's Reader as a package's initialisation takes
// it (google/uuid keeps it so): its bytes come from the source
// crypto/rand.Read draws from.
var initReader = cryptorand.Reader

// cryptoDraws explores, in test t, a body that draws 8 bytes with
// crypto/rand.Read and 8 from initReader in each of its 2 executions, and
// returns the draws of each execution.
func cryptoDraws(t *testing.T) (draws [][2][8]byte) {
	rt.Test(t, func() {
		var d [2][8]byte
		cryptorand.Read(d[0][:])
		if _, err := io.ReadFull(initReader, d[1][:]); err != nil {
			t.Fatal(err)
		}
		draws = append(draws, d)
		ch := rt.MakeChan(make(chan int))
		for i := range 2 {
			rt.Go(func() { rt.Of("", ch).Send(i) })
		}
		rt.Of("", ch).Recv()
		rt.Of("", ch).Recv()
	})
	return draws
}

// TestCryptoRandRepeats checks that crypto/rand, through Read and through
// a Reader kept from before, gives each execution of a test the same
// bytes, and a parallel test Go's own; and that the test leaves
// crypto/rand as it found it.
func TestCryptoRandRepeats(t *testing.T) {
	before := cryptorand.Reader
	var seq, par [][2][8]byte
	t.Run("sequential", func(t *testing.T) { seq = cryptoDraws(t) })
	if cryptorand.Reader != before {
		t.Errorf("crypto/rand.Reader is %T after the test, want %T", cryptorand.Reader, before)
	}
	if len(seq) != 2 || seq[0] != seq[1] {
		t.Errorf("sequential: draws %x, want 2 executions with the same bytes", seq)
	} else if seq[0][0] == seq[0][1] {
		t.Errorf("sequential: Read and the Reader kept gave the same bytes %x: want one stream", seq[0][0])
	}
	t.Run("group", func(t *testing.T) {
		t.Run("parallel", func(t *testing.T) {
			t.Parallel()
			par = cryptoDraws(t)
		})
	})
	if len(par) != 2 || par[0] == par[1] || par[0] == seq[0] {
		t.Errorf("parallel: draws %x, want 2 executions with Go's own random bytes", par)
	}
}
