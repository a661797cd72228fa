package corpus

// SearchBug looks for target in items with one goroutine per part of the
// items, and returns at the first answer: when several parts hold target,
// the goroutines that answer later block for ever on their send.
func SearchBug(items []string, target string, parts int) bool {
	found := make(chan bool)
	for _, part := range split(items, parts) {
		go func() {
			for _, it := range part {
				if it == target {
					found <- true // want TestSearchBug/two_parts: leak
					return
				}
			}
			found <- false
		}()
	}
	for range parts {
		if <-found {
			return true
		}
	}
	return false
}

// Search gives the channel room for every part's answer.
func Search(items []string, target string, parts int) bool {
	found := make(chan bool, parts)
	for _, part := range split(items, parts) {
		go func() {
			for _, it := range part {
				if it == target {
					found <- true
					return
				}
			}
			found <- false
		}()
	}
	for range parts {
		if <-found {
			return true
		}
	}
	return false
}

// split cuts items into n parts of nearly equal length.
func split(items []string, n int) [][]string {
	var parts [][]string
	for i := range n {
		parts = append(parts, items[i*len(items)/n:(i+1)*len(items)/n])
	}
	return parts
}
