package corpus

import "testing"

func TestWordCountBug(t *testing.T) {
	counts := WordCountBug([]string{"to be", "or not to be"})
	if counts["to"] != 2 || counts["be"] != 2 {
		t.Errorf("counts %v, want to and be twice", counts)
	}
}

func TestWordCountFixed(t *testing.T) {
	counts := WordCount([]string{"to be", "or not to be"})
	if counts["to"] != 2 || counts["be"] != 2 {
		t.Errorf("counts %v, want to and be twice", counts)
	}
}
