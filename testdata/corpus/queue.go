package corpus

// ProducerBug sends jobs until the consumer closes the channel to say it
// wants no more: the next send panics.
func ProducerBug(jobs chan int, n int) {
	for i := range n {
		jobs <- i // want TestQueueBug: send on closed channel
	}
}

// ConsumeBug takes one job and closes the channel it does not own.
func ConsumeBug(jobs chan int) int {
	j := <-jobs
	close(jobs)
	return j
}

// Producer stops when the consumer says so on quit.
func Producer(jobs chan<- int, quit <-chan struct{}, n int) {
	defer close(jobs)
	for i := range n {
		select {
		case jobs <- i:
		case <-quit:
			return
		}
	}
}

// Consume takes one job and tells the producer to stop.
func Consume(jobs <-chan int, quit chan<- struct{}) int {
	j := <-jobs
	close(quit)
	return j
}
