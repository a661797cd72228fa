package corpus

// MergeBug adds one value from each of two channels, which their senders
// close after sending: a second receive from the same channel yields its
// zero value.
func MergeBug(a, b <-chan int) int {
	sum := 0
	for range 2 {
		select {
		case v := <-a:
			sum += v
		case v := <-b:
			sum += v
		}
	}
	return sum
}

// Merge stops receiving from a channel once it is closed, by setting it to
// nil: a nil channel's case never proceeds.
func Merge(a, b <-chan int) int {
	sum := 0
	for a != nil || b != nil {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			sum += v
		case v, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			sum += v
		}
	}
	return sum
}
