package corpus

import (
	"context"
	"testing"
)

// cancelAfterWork cancels the context once the work is done.
func cancelAfterWork(t *testing.T, watch func(context.Context, func()) <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	worked := false
	done := watch(ctx, func() { worked = true })
	<-done
	cancel()
	if !worked {
		t.Error("done before the work")
	}
}

func TestWatchBug(t *testing.T) { cancelAfterWork(t, WatchBug) }

func TestWatchFixed(t *testing.T) { cancelAfterWork(t, Watch) }
