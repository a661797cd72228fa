package corpus

import "errors"

var errBadKey = errors.New("bad key")

// FetchBug looks key up in a goroutine and gives up on a bad key before
// receiving: the goroutine's send blocks for ever.
func FetchBug(key string) (string, error) {
	result := make(chan string)
	go func() {
		result <- "value of " + key // want TestFetchBug: leak
	}()
	if key == "" {
		return "", errBadKey
	}
	return <-result, nil
}

// Fetch gives the result channel room for the value nobody may receive.
func Fetch(key string) (string, error) {
	result := make(chan string, 1)
	go func() {
		result <- "value of " + key
	}()
	if key == "" {
		return "", errBadKey
	}
	return <-result, nil
}
