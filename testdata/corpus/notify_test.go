package corpus

import "testing"

func listen(t *testing.T, notify func(chan<- string, string)) {
	events := make(chan string)
	go notify(events, "started")
	if e := <-events; e != "started" { // want TestNotifyBug: deadlock
		t.Errorf("event %q", e)
	}
}

func TestNotifyBug(t *testing.T) { listen(t, NotifyBug) }

func TestNotifyFixed(t *testing.T) { listen(t, Notify) }
