// Package unsupported holds constructs the rewriting refuses.
package unsupported

import (
	"io/ioutil"
	"reflect"
)

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

func reflected(a chan int) {
	reflect.ValueOf(a).Send(reflect.ValueOf(1))
	v, _ := reflect.ValueOf(a).TryRecv()
	_ = v
	reflect.ValueOf(a).Close()
}

func generic[C ~chan int](c C) int {
	c <- 1
	n := 0
	for v := range c {
		n += v
	}
	return n + len(c)
}

func write() {
	go ioutil.WriteFile("f", nil, 0o644)
}
