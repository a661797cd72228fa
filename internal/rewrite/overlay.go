// This file implements Overlay: the files go build's -overlay flag reads.

package rewrite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Overlay writes the rewritten files to dir, and the overlay file that maps
// each original file to its rewriting, and returns the overlay file's path.
func Overlay(dir string, files map[string][]byte) (string, error) {
	replace := map[string]string{}
	i := 0
	for name, src := range files {
		to := filepath.Join(dir, strconv.Itoa(i)+"_"+filepath.Base(name))
		i++
		if err := os.WriteFile(to, src, 0o644); err != nil {
			return "", fmt.Errorf("writing the rewritten %s: %w", name, err)
		}
		replace[name] = to
	}
	b, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, b, 0o644)
}
