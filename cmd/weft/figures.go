// This file reads the committed files of figures that weft bench prints
// beside its own (speed_baseline.txt, nidhugg.txt, genmc.txt): fields "KEY
// TEXT" and rows of tab-separated columns, '#' starting a comment line.

package main

import (
	"fmt"
	"strings"
)

// parseFigures calls row with the columns of each row of text (a line with
// a tab) and field with the key and text of each other line, which it
// reports known; what, naming the file, prefixes its errors.
func parseFigures(text, what string, row func(cols []string) error, field func(key, val string) bool) error {
	for n, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.Contains(line, "\t") {
			if err := row(strings.Split(line, "\t")); err != nil {
				return fmt.Errorf("%s, line %d: %w", what, n+1, err)
			}
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		if !field(key, strings.TrimSpace(val)) {
			return fmt.Errorf("%s, line %d: %q is neither a field nor a row", what, n+1, line)
		}
	}
	return nil
}
