package corpus

import "testing"

// board is what both versions implement.
type board interface {
	Post(msg string)
	Read() *string
}

func readPost(t *testing.T, b board) {
	go b.Post("hello")
	if msg := b.Read(); msg == nil {
		t.Fatal("the flag is up but there is no message") // want TestBoardBug: assertion
	}
}

func TestBoardBug(t *testing.T) { readPost(t, &BoardBug{}) }

func TestBoardFixed(t *testing.T) { readPost(t, &Board{}) }
