package corpus

import "testing"

func TestQueueBug(t *testing.T) {
	jobs := make(chan int, 1)
	go ProducerBug(jobs, 3)
	if j := ConsumeBug(jobs); j != 0 {
		t.Errorf("job %d, want 0", j)
	}
}

func TestQueueFixed(t *testing.T) {
	jobs, quit := make(chan int, 1), make(chan struct{})
	done := make(chan struct{})
	go func() {
		Producer(jobs, quit, 3)
		close(done)
	}()
	if j := Consume(jobs, quit); j != 0 {
		t.Errorf("job %d, want 0", j)
	}
	<-done
}
