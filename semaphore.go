// This file implements counting and binary semaphores (Lei and Carver 2006, §2.3).

package weft

import (
	"fmt"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// Semaphore is a counting semaphore (Lei and Carver 2006, §2.3): P blocks while the value
// is 0 and decrements it; V increments it and never blocks. The zero value is
// a semaphore with value 0; NewSemaphore sets another initial value, which
// every execution starts from.
//
// When several blocked P's can complete, any of them may go first (the
// paper's FIFO queue is one of the orders explored); internal/engine/
// semaphore.go states the model.
type Semaphore struct {
	o    engine.Obj
	init int
}

// NewSemaphore returns a counting semaphore with initial value n.
func NewSemaphore(n int) *Semaphore {
	if n < 0 {
		panic(fmt.Sprintf("weft: NewSemaphore(%d): negative initial value", n))
	}
	s := &Semaphore{init: n}
	engine.Create(&s.o)
	return s
}

// P waits until the value is positive and decrements it.
func (s *Semaphore) P() { cur().P(&s.o, trace.ClassSemaphore, s.init) }

// V increments the value.
func (s *Semaphore) V() { cur().V(&s.o, trace.ClassSemaphore, s.init) }

// SetName names s in reports.
func (s *Semaphore) SetName(name string) { s.o.SetName(name) }

// BinarySemaphore is a binary semaphore (Lei and Carver 2006, §2.3): its value is 0 or 1,
// P blocks at 0 and V blocks at 1, so completed P's and V's alternate. The
// zero value has value 0 (its first completed operation is a V).
type BinarySemaphore struct {
	o    engine.Obj
	init int
}

// NewBinarySemaphore returns a binary semaphore with initial value n, 0 or 1.
func NewBinarySemaphore(n int) *BinarySemaphore {
	if n != 0 && n != 1 {
		panic(fmt.Sprintf("weft: NewBinarySemaphore(%d): the initial value must be 0 or 1", n))
	}
	s := &BinarySemaphore{init: n}
	engine.Create(&s.o)
	return s
}

// P waits until the value is 1 and sets it to 0.
func (s *BinarySemaphore) P() { cur().P(&s.o, trace.ClassBinarySemaphore, s.init) }

// V waits until the value is 0 and sets it to 1.
func (s *BinarySemaphore) V() { cur().V(&s.o, trace.ClassBinarySemaphore, s.init) }

// SetName names s in reports.
func (s *BinarySemaphore) SetName(name string) { s.o.SetName(name) }
