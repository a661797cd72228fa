package corpus

import (
	"sync"
	"testing"
)

func TestRegistryBug(t *testing.T) {
	r := &RegistryBug{}
	var wg sync.WaitGroup
	wg.Go(func() { r.Add("a") })
	wg.Go(func() { r.Names() })
	wg.Wait()
}

func TestRegistryFixed(t *testing.T) {
	r := &Registry{}
	var wg sync.WaitGroup
	wg.Go(func() { r.Add("a") })
	wg.Go(func() { r.Names() })
	wg.Wait()
}
