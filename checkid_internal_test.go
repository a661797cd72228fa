// This file tests packageArg, the package argument of Check's replay
// command.

package weft

import "testing"

func TestPackageArg(t *testing.T) {
	tests := []struct {
		bin, mod, want string
	}{
		{"github.com/weft-go/weft.test", "github.com/weft-go/weft", "."},
		{"github.com/weft-go/weft/std/sync.test", "github.com/weft-go/weft", "./std/sync"},
		{"example.com/m/internal/queue.test", "example.com/m", "./internal/queue"},
		{"example.com/mod2/x.test", "example.com/m", "example.com/mod2/x"}, // another module's package
		{"example.com/m/x.test", "", "example.com/m/x"},
		{"command-line-arguments.test", "example.com/m", ""},
		{"example.com/m/cmd/tool", "example.com/m", ""}, // no test binary
		{".test", "example.com/m", ""},
	}
	for _, tt := range tests {
		if got := packageArg(tt.bin, tt.mod); got != tt.want {
			t.Errorf("packageArg(%q, %q) = %q, want %q", tt.bin, tt.mod, got, tt.want)
		}
	}
	if got := testPackage(); got != "." {
		t.Errorf("testPackage() = %q in weft's own tests, want %q", got, ".")
	}
}
