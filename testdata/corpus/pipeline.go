package corpus

// gen sends the numbers of xs and closes its channel.
func gen(xs ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, x := range xs {
			out <- x
		}
	}()
	return out
}

// squareBug squares what it receives but never closes its channel.
func squareBug(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		for x := range in {
			out <- x * x
		}
	}()
	return out
}

// square squares what it receives and closes its channel when in is.
func square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for x := range in {
			out <- x * x
		}
	}()
	return out
}

// sum adds what it receives until its channel is closed.
func sum(in <-chan int) int {
	total := 0
	for x := range in { // want TestPipelineBug: deadlock
		total += x
	}
	return total
}

// SumOfSquaresBug is gen, squareBug and sum.
func SumOfSquaresBug(xs ...int) int { return sum(squareBug(gen(xs...))) }

// SumOfSquares is gen, square and sum.
func SumOfSquares(xs ...int) int { return sum(square(gen(xs...))) }
