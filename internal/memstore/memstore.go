// Package memstore is a chattest.Store in memory, for the tests of the
// fake's persistence: a server closed and another opened on the same
// Store start where the first stopped, as on a data directory.
package memstore

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Store keeps a server's values and changes in memory. Its zero value is
// an empty store. One server at a time may have it open.
type Store struct {
	mu      sync.Mutex
	open    bool
	values  map[string][]byte
	changes [][]byte
	fail    error // FailAppends: what Append returns
}

// String names the store in errors.
func (s *Store) String() string { return "the memory store" }

// Open keeps the values of defaults the store does not hold and returns
// its values and changes; it fails while another server has it open.
func (s *Store) Open(defaults map[string][]byte) (map[string][]byte, [][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open {
		return nil, nil, errors.New("memstore: the store is in use by another server")
	}
	if s.values == nil {
		s.values = map[string][]byte{}
	}
	for k, v := range defaults {
		if _, ok := s.values[k]; !ok {
			s.values[k] = slices.Clone(v)
		}
	}
	s.open = true
	return maps.Clone(s.values), slices.Clone(s.changes), nil
}

// Append keeps the changes, which must follow those the store holds.
func (s *Store) Append(first uint64, changes [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.fail != nil:
		return s.fail
	case !s.open:
		return errors.New("memstore: the store is closed")
	case first != uint64(len(s.changes)):
		return fmt.Errorf("memstore: change %d appended after the %d held", first, len(s.changes))
	}
	for _, ch := range changes {
		s.changes = append(s.changes, slices.Clone(ch))
	}
	return nil
}

// Changes returns the changes the store holds.
func (s *Store) Changes() ([][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.changes), nil
}

// Close lets another server open the store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open = false
	return nil
}

// FailAppends makes every later Append fail with err.
func (s *Store) FailAppends(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = err
}

// Set replaces the value name, as a damaged or foreign store would hold
// it.
func (s *Store) Set(name string, v []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[string][]byte{}
	}
	s.values[name] = v
}

// Len returns how many changes the store holds.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.changes)
}

// Killed returns a closed store that holds what s holds now, as a server
// killed now would leave it.
func (s *Store) Killed() *Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &Store{values: maps.Clone(s.values), changes: slices.Clone(s.changes)}
}
