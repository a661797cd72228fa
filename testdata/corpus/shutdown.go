package corpus

import "sync"

// ServerBug closes done when a worker stops, and both workers stop.
type ServerBug struct {
	done chan struct{}
}

// Stop closes done.
func (s *ServerBug) Stop() {
	close(s.done) // want TestStopBug: close of closed channel
}

// Server closes done once, whoever stops it.
type Server struct {
	done chan struct{}
	once sync.Once
}

// Stop closes done the first time it is called.
func (s *Server) Stop() {
	s.once.Do(func() { close(s.done) })
}
