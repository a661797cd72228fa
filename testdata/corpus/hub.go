package corpus

import "sync"

// HubBug fans messages out to its subscribers, sending on each one's
// unbuffered channel while it holds its lock: a subscriber that leaves,
// which takes the lock, while a message for it is being sent, waits for
// the sender, who waits for it to receive.
type HubBug struct {
	mu   sync.Mutex
	subs map[string]chan string
}

// NewHubBug returns a hub without subscribers.
func NewHubBug() *HubBug { return &HubBug{subs: map[string]chan string{}} }

// Subscribe returns the channel of the messages for name.
func (h *HubBug) Subscribe(name string) <-chan string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan string)
	h.subs[name] = ch
	return ch
}

// Leave removes name's subscription.
func (h *HubBug) Leave(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, name)
}

// Publish sends msg to every subscriber.
func (h *HubBug) Publish(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ch := range h.subs {
		ch <- msg // want TestHubBug: deadlock
	}
}

// Hub fans messages out to its subscribers, each with a buffer of one
// message: a send never waits for a subscriber.
type Hub struct {
	mu   sync.Mutex
	subs map[string]chan string
}

// NewHub returns a hub without subscribers.
func NewHub() *Hub { return &Hub{subs: map[string]chan string{}} }

// Subscribe returns the channel of the messages for name.
func (h *Hub) Subscribe(name string) <-chan string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan string, 1)
	h.subs[name] = ch
	return ch
}

// Leave removes name's subscription.
func (h *Hub) Leave(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, name)
}

// Publish sends msg to every subscriber.
func (h *Hub) Publish(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ch := range h.subs {
		ch <- msg
	}
}
