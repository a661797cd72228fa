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

func split(chans map[string]chan int) int {
	select {
	case v := <-chans[`a
b`]:
		return v
	}
}
