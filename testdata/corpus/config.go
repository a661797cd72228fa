package corpus

import (
	"sync"
	"sync/atomic"
)

// ConfigBug loads its settings on first use, guarded by a flag: two first
// users both see the flag unset and both load.
type ConfigBug struct {
	loaded atomic.Bool
	loads  atomic.Int32
}

// Get loads the settings if they are not loaded yet.
func (c *ConfigBug) Get() {
	if !c.loaded.Load() {
		c.loads.Add(1)
		c.loaded.Store(true)
	}
}

// Config loads its settings once with sync.Once.
type Config struct {
	once  sync.Once
	loads atomic.Int32
}

// Get loads the settings if they are not loaded yet.
func (c *Config) Get() {
	c.once.Do(func() { c.loads.Add(1) })
}
