//go:build unix

// This file tests an interrupt (Ctrl-C) of weft test: the running
// exploration stops and prints its summary, no test after it runs, and
// weft test exits with status 130.

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTestInterrupt runs weft test -v (this test binary as weft, TestMain)
// in a process group of its own on a test that explores for minutes, and
// interrupts the group, as Ctrl-C on a terminal does, once the test runs.
func TestTestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/intr\n\ngo 1.26.0\n",
		"intr_test.go": `package intr

import (
	"sync"
	"testing"
)

func TestLong(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 9 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			mu.Unlock()
		}()
	}
	wg.Wait()
}

func TestAfter(t *testing.T) {}
`})
	cmd := exec.Command(os.Args[0], "test", "-v", "-replay-files", "off", "-run", "TestLong|TestAfter", ".")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if sc.Text() == "=== RUN   TestLong" {
			time.Sleep(time.Second) // into the exploration
			syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		}
	}
	err = cmd.Wait()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	got := out.String()
	for _, want := range []string{"NOT exhaustive: stopped: the context was canceled", "--- INTERRUPTED: TestLong", "weft: interrupted: not run\n--- INTERRUPTED: TestAfter"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != exitInterrupted || !strings.Contains(stderr.String(), "weft test: interrupted") {
		t.Errorf("exit status %d (%v), want %d and weft test saying so; output:\n%s\nstderr:\n%s", code, err, exitInterrupted, got, stderr.String())
	}
}
