package unsupported

import "testing"

func TestSub(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
	}{{"one", 1}} {
		ch := make(chan int, 1)
		ch <- c.n
		t.Run(c.name, func(t *testing.T) {
			if pick(ch, ch) != 0 {
				t.Error("not the first")
			}
		})
	}
}

func TestLateParallel(t *testing.T) {
	t.Run("late", func(t *testing.T) {
		t.Log("first")
		t.Parallel()
	})
	go t.Log("parent")
}

func TestLateParallelSub(t *testing.T) {
	t.Run("late", func(t *testing.T) {
		t.Setenv("FIRST", "1")
		t.Parallel()
	})
	t.Run("first", func(t *testing.T) {
		t.Parallel()
		done := make(chan bool)
		go func() { done <- true }()
		<-done
	})
}
