package corpus

import (
	"context"
	"time"
)

// slowQuery answers q after 200ms, or gives up when ctx is done.
func slowQuery(ctx context.Context, q string) (string, error) {
	select {
	case <-time.After(200 * time.Millisecond):
		return "rows of " + q, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// QueryBug runs q with a timeout; at the deadline it returns, and the
// query's goroutine, which runs on without the caller's context, blocks on
// its send for ever.
func QueryBug(ctx context.Context, q string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := make(chan string)
	go func() {
		rows, _ := slowQuery(context.Background(), q)
		res <- rows // want TestQueryBug: leak
	}()
	select {
	case rows := <-res:
		return rows, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Query runs the query with the caller's context, which ends it at the
// deadline, and its goroutine sends only while someone waits.
func Query(ctx context.Context, q string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := make(chan string)
	go func() {
		rows, err := slowQuery(ctx, q)
		if err != nil {
			return
		}
		select {
		case res <- rows:
		case <-ctx.Done():
		}
	}()
	select {
	case rows := <-res:
		return rows, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
