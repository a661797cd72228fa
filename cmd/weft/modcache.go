// This file implements cachedModules: the copies of the dependency modules
// in the module cache whose files weft test rewrites, which the go
// command's -overlay may not replace there.

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-go/weft/internal/rewrite"
)

// cachedModules copies each module of res that is in the module cache and
// has rewritten files to a directory of tmp, with its rewritten files in
// place of the originals (which it takes out of res.Files), and returns
// flags with a -modfile whose replace directives point the build at the
// copies: the go command refuses an overlay of a file beneath GOMODCACHE.
// A copy holds the build's package directories of its module (their
// files, not their subdirectories), the files they embed, and its go.mod.
func cachedModules(dir, tmp string, flags []string, res *rewrite.Result) ([]string, error) {
	cache, err := goOutput(dir, "env", "GOMODCACHE")
	if err != nil {
		return nil, err
	}
	var mods []*rewrite.Module
	for _, m := range res.Modules {
		if cache != "" && inDir(m.Dir, cache) && slices.ContainsFunc(m.Dirs, func(d string) bool { return hasRewritten(res.Files, d) }) {
			mods = append(mods, m)
		}
	}
	if len(mods) == 0 {
		return flags, nil
	}
	slices.SortFunc(mods, func(a, b *rewrite.Module) int { return strings.Compare(a.Path, b.Path) })
	modfile := ""
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "-modfile="); ok {
			modfile = v
		}
	}
	if modfile == "" {
		gomod, err := goOutput(dir, "env", "GOMOD")
		if err != nil {
			return nil, err
		}
		modfile = filepath.Join(tmp, "go.mod")
		if err := copyFile(gomod, modfile); err != nil {
			return nil, err
		}
		if err := copyFile(strings.TrimSuffix(gomod, ".mod")+".sum", filepath.Join(tmp, "go.sum")); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		flags = append(flags, "-modfile="+modfile)
	}
	edit := []string{"mod", "edit", "-modfile=" + modfile}
	for i, m := range mods {
		to := filepath.Join(tmp, "mods", strconv.Itoa(i))
		if err := copyModule(m, to, res.Files); err != nil {
			return nil, fmt.Errorf("weft test: copying %s@%s from the module cache to rewrite it: %w", m.Path, m.Version, err)
		}
		edit = append(edit, "-replace="+m.Path+"@"+m.Version+"="+to)
	}
	if _, err := goOutput(dir, edit...); err != nil {
		return nil, err
	}
	return flags, nil
}

// inDir reports whether path is dir or beneath it.
func inDir(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// hasRewritten reports whether files holds a file of directory dir.
func hasRewritten(files map[string][]byte, dir string) bool {
	for name := range files {
		if filepath.Dir(name) == dir {
			return true
		}
	}
	return false
}

// copyModule copies module m's package directories, embedded files and
// go.mod to dir, writing the rewritten files of files instead of their
// originals and deleting them from files.
func copyModule(m *rewrite.Module, dir string, files map[string][]byte) error {
	copyOne := func(from string) error {
		rel, err := filepath.Rel(m.Dir, from)
		if err != nil || !inDir(from, m.Dir) {
			return fmt.Errorf("%s is outside the module's directory %s", from, m.Dir)
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if src, ok := files[from]; ok {
			delete(files, from)
			return os.WriteFile(to, src, 0o644)
		}
		return copyFile(from, to)
	}
	for _, d := range m.Dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Type().IsRegular() {
				if err := copyOne(filepath.Join(d, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	for _, f := range m.EmbedFiles {
		if _, err := os.Stat(filepath.Join(dir, mustRel(m.Dir, f))); errors.Is(err, fs.ErrNotExist) {
			if err := copyOne(f); err != nil {
				return err
			}
		}
	}
	gomod := []byte("module " + m.Path + "\n")
	if m.GoMod != "" {
		b, err := os.ReadFile(m.GoMod)
		if err != nil {
			return err
		}
		gomod = b
	}
	return os.WriteFile(filepath.Join(dir, "go.mod"), raiseGoLine(gomod), 0o644)
}

// minDepGo is the oldest go line of a copied module: the rewritten code
// calls generic functions (Go 1.18), and a module with an older go line
// compiles at minDepGo instead, whose loop variables are the same (per
// loop, as before Go 1.22).
const minDepGo = "1.21"

// goLineRE matches a go.mod's go line.
var goLineRE = regexp.MustCompile(`(?m)^go\s+(\S+)\s*$`)

// raiseGoLine returns gomod with its go line raised to minDepGo if older
// (or absent, which means go 1.16).
func raiseGoLine(gomod []byte) []byte {
	m := goLineRE.FindSubmatchIndex(gomod)
	if m == nil {
		return append(append(gomod, '\n'), "go "+minDepGo+"\n"...)
	}
	if !goVersionLess(string(gomod[m[2]:m[3]]), minDepGo) {
		return gomod
	}
	return slices.Concat(gomod[:m[2]], []byte(minDepGo), gomod[m[3]:])
}

// mustRel returns path relative to dir, or path if it has none.
func mustRel(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil {
		return rel
	}
	return path
}
