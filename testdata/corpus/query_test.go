package corpus

import (
	"context"
	"testing"
	"time"
)

func TestQueryBug(t *testing.T) {
	if _, err := QueryBug(context.Background(), "users", 50*time.Millisecond); err != context.DeadlineExceeded {
		t.Errorf("err = %v, want DeadlineExceeded", err)
	}
}

func TestQueryFixed(t *testing.T) {
	if _, err := Query(context.Background(), "users", 50*time.Millisecond); err != context.DeadlineExceeded {
		t.Errorf("err = %v, want DeadlineExceeded", err)
	}
	if rows, err := Query(context.Background(), "users", time.Second); rows != "rows of users" || err != nil {
		t.Errorf("Query = %q, %v; want the rows", rows, err) // want -time any TestQueryFixed: assertion
	}
}
