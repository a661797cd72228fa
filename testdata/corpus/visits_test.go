package corpus

import "testing"

func TestVisitsBug(t *testing.T) {
	var v VisitsBug
	done := make(chan struct{})
	for range 2 {
		go func() {
			v.Visit()
			done <- struct{}{}
		}()
	}
	<-done
	<-done
	if n := v.Count(); n != 2 {
		t.Errorf("%d visits, want 2", n)
	}
}

func TestVisitsFixed(t *testing.T) {
	var v Visits
	done := make(chan struct{})
	for range 2 {
		go func() {
			v.Visit()
			done <- struct{}{}
		}()
	}
	<-done
	<-done
	if n := v.Count(); n != 2 {
		t.Errorf("%d visits, want 2", n)
	}
}
