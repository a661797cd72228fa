// Package unsupported holds constructs the rewriting refuses.
package unsupported

import "reflect"

func pick(a, b chan int) int {
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(a)},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(b)},
	}
	i, _, _ := reflect.Select(cases)
	return i
}

func split(chans []chan int) int {
	select {
	case v := <-chans[len(
		chans)-1]:
		return v
	}
}
