package corpus

import (
	"slices"
	"testing"
)

func greet(t *testing.T, g func(<-chan string) []string) {
	names := make(chan string, 2)
	names <- "ann"
	names <- "bob"
	close(names)
	out := g(names)
	slices.Sort(out)
	if !slices.Equal(out, []string{"hello ann", "hello bob"}) {
		t.Errorf("greeted %q", out) // want TestGreetBug: assertion
	}
}

func TestGreetBug(t *testing.T) { greet(t, GreetBug) }

func TestGreetFixed(t *testing.T) { greet(t, Greet) }
