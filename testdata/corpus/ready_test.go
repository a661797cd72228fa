package corpus

import "testing"

func TestGateBug(t *testing.T) {
	g := NewGateBug()
	go g.Open()
	g.Wait()
}

func TestGateFixed(t *testing.T) {
	g := NewGate()
	go g.Open()
	g.Wait()
}
