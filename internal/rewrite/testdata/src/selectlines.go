package src

// fanOut sends v to the channel of its shard, or reads a reply, with
// select cases written over several lines.
func fanOut(shards []chan int, replies map[string]chan string, v int) (string, int) {
	var got [2]string
	select {
	case shards[ // the shard of v
	v%len(shards)] <- func() int {
		w := v * 2
		return w
	}():
		return "", v
	case got[len(
		got)-1] = <-reply(replies,
		"a"):
		return got[1], 0
	case r, ok := <-replies["b"]:
		if !ok {
			break
		}
		return r, 1
	}
	return "", 2
}

// reply returns the channel of the reply to name.
func reply(replies map[string]chan string, name string) chan string {
	return replies[name]
}
