package corpus

import (
	"context"
	"testing"
)

func consumeThree(t *testing.T, produce func(context.Context, chan<- int)) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan int)
	go produce(ctx, out)
	sum := 0
	for v := range out {
		sum += v
		if v == 2 {
			break
		}
	}
	if sum != 3 {
		t.Errorf("sum %d, want 3", sum)
	}
}

func TestProduceBug(t *testing.T) { consumeThree(t, ProduceBug) }

func TestProduceFixed(t *testing.T) { consumeThree(t, Produce) }
