package corpus

// HandoffBug hands v to a new goroutine over an unbuffered channel before
// the goroutine that receives it exists.
func HandoffBug(v int) int {
	ch := make(chan int)
	out := make(chan int)
	ch <- v // want TestHandoffBug: deadlock
	go func() { out <- 2 * <-ch }()
	return <-out
}

// Handoff starts the receiver first.
func Handoff(v int) int {
	ch := make(chan int)
	out := make(chan int)
	go func() { out <- 2 * <-ch }()
	ch <- v
	return <-out
}
