package corpus

import "time"

// compute is a worker's quick computation.
func compute() int { return 42 }

// AnswerBug asks a worker for an answer and gives up after timeout. The
// worker answers at once, but nothing makes it run before the timeout
// fires: if the timeout wins, the worker's send on the unbuffered channel
// waits for ever.
func AnswerBug(timeout time.Duration) (int, error) {
	answer := make(chan int)
	go func() {
		answer <- compute() // want -time any TestAnswerBug: leak
	}()
	select {
	case v := <-answer:
		return v, nil
	case <-time.After(timeout):
		return 0, errTimeout
	}
}

// Answer gives the answer channel room for an answer nobody waits for.
func Answer(timeout time.Duration) (int, error) {
	answer := make(chan int, 1)
	go func() {
		answer <- compute()
	}()
	select {
	case v := <-answer:
		return v, nil
	case <-time.After(timeout):
		return 0, errTimeout
	}
}
