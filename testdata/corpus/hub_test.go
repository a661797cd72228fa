package corpus

import (
	"sync"
	"testing"
)

// hub is what the two hubs share.
type hub interface {
	Subscribe(name string) <-chan string
	Leave(name string)
	Publish(msg string)
}

// hubs publishes one message to three subscribers: two read it, the third
// leaves without reading.
func hubs(t *testing.T, h hub) {
	var wg sync.WaitGroup
	for _, name := range []string{"ann", "bob"} {
		ch := h.Subscribe(name)
		wg.Go(func() {
			if msg := <-ch; msg != "hello" {
				t.Errorf("%s got %q, want hello", name, msg)
			}
		})
	}
	h.Subscribe("cid")
	wg.Go(func() { h.Leave("cid") })
	h.Publish("hello")
	wg.Wait()
}

func TestHubBug(t *testing.T) { hubs(t, NewHubBug()) }

func TestHubFixed(t *testing.T) { hubs(t, NewHub()) }
