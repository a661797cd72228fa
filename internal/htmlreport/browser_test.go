// This file loads the golden pages in a real headless Chromium: after its
// JavaScript ran, the dumped DOM has the lanes and arrows of the golden
// deadlock and data race, and a screenshot of each is saved.

package htmlreport

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ScreenshotEnv names a directory where TestBrowser saves its screenshots
// (default: a temporary directory, removed after the test).
const screenshotEnv = "WEFT_SCREENSHOTS"

// chromium returns the path of a Chromium, or skips t.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH: the HTML report's browser test needs one (Debian: apt-get install chromium; .ci/run installs it as root)")
	return ""
}

// headless runs Chromium headless on the file page with args, offline and
// with a profile of its own, and returns its standard output.
func headless(t *testing.T, bin, page string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, args...)
	cmd := exec.CommandContext(ctx, bin, append(all, "file://"+page)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// TestBrowser loads each golden page in Chromium, checks that its script
// ran and that the DOM has the page's lanes, boxes and arrows, and saves a
// screenshot (in $WEFT_SCREENSHOTS if set), which it logs: one run of
// Chromium per page does both.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	bin := chromium(t)
	shots := os.Getenv(screenshotEnv)
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range goldenPages {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel() // Chromium mostly waits: the pages load side by side
			page, err := filepath.Abs(filepath.Join("testdata", p.name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			png := filepath.Join(shots, p.name+".png")
			dom := headless(t, bin, page, "--dump-dom", "--screenshot="+png, "--window-size=1200,800")
			if !strings.Contains(dom, `<html lang="en" class="js">`) {
				t.Fatalf("the page's script did not run: the DOM starts %.200q", dom)
			}
			c := count(dom)
			if c.lanes != p.lanes || c.boxes != p.boxes || c.races != p.races {
				t.Errorf("DOM: %d lanes, %d boxes, %d racing steps; want %d, %d, %d", c.lanes, c.boxes, c.races, p.lanes, p.boxes, p.races)
			}
			for _, class := range arrowClasses {
				if c.arrows[class] != p.arrows[class] {
					t.Errorf("DOM: %d %s arrows, want %d", c.arrows[class], class, p.arrows[class])
				}
			}
			b, err := os.ReadFile(png)
			if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
				t.Fatalf("screenshot %s: %d bytes, %v", png, len(b), err)
			}
			t.Logf("screenshot: %s (%d bytes)", png, len(b))
		})
	}
}
