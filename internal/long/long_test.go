// This file tests that WEFT_LONG=1 turns the long tests on and that any
// other value, or none, leaves them off.

package long

import "testing"

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		value string
		want  bool
	}{
		{"", false},
		{"0", false},
		{"true", false},
		{"1", !testing.Short()},
	} {
		t.Setenv(Env, c.value)
		if got := Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v; want %v", Env, c.value, got, c.want)
		}
	}
}

func TestSkip(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("off", func(t *testing.T) {
		Skip(t, "a test")
		ran = true
	})
	if ran {
		t.Errorf("with %s unset, the test ran past Skip", Env)
	}
	if testing.Short() {
		return
	}
	t.Setenv(Env, "1")
	t.Run("on", func(t *testing.T) {
		Skip(t, "a test")
		ran = true
	})
	if !ran {
		t.Errorf("with %s=1, Skip skipped the test", Env)
	}
}

func TestN(t *testing.T) {
	t.Setenv(Env, "")
	if got := N(3, 100); got != 3 {
		t.Errorf("with %s unset, N(3, 100) = %d; want 3", Env, got)
	}
	t.Setenv(Env, "1")
	want := 100
	if testing.Short() {
		want = 3
	}
	if got := N(3, 100); got != want {
		t.Errorf("with %s=1, N(3, 100) = %d; want %d", Env, got, want)
	}
}
