package corpus

import (
	"context"
	"testing"
)

func TestSessionBug(t *testing.T) {
	StartSessionBug(context.Background(), func() {})
}

func TestSessionFixed(t *testing.T) {
	cleaned := make(chan bool)
	end := StartSession(context.Background(), func() { close(cleaned) })
	end()
	<-cleaned
}
