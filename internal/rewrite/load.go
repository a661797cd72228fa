// This file implements Packages: loading the packages under test, and the
// packages of the main module and of its dependencies that they import,
// with go/packages, and rewriting their files.

package rewrite

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Config says which packages to load.
type Config struct {
	Dir        string            // the directory to load from ("": the current one)
	BuildFlags []string          // build flags, as for go build (-tags, ...)
	Env        []string          // the environment of the go command (nil: the process's)
	Overlay    map[string][]byte // file contents that replace those on disk
	// GoVersion is the go line of the module's own go.mod (1.N or 1.N.M)
	// when the build uses a temporary one whose go line is newer ("":
	// none): every file without a Go version in its build constraint keeps
	// GoVersion's language (its loop variables above all) through one
	// (pin).
	GoVersion string
	// Real lists the modules, by module path, whose packages stay as they
	// are, running outside weft's control; AllReal keeps every module but
	// the main one so (the packages of no dependency are rewritten).
	Real    []string
	AllReal bool
}

// keptReal reports whether the packages of module path stay as they are.
func (cfg Config) keptReal(path string) bool {
	return cfg.AllReal || slices.Contains(cfg.Real, path)
}

// Packages loads the packages that patterns match, with their tests (the
// internal and the external test packages, as go test builds them), and
// returns the rewritten source of every file of theirs, and of the
// non-test files of the packages they import, that needs rewriting, by
// absolute file name: the packages of the main module and those of its
// dependencies (in the module cache, vendored, or the target of a replace
// directive), but for the standard library's, weft's own and those of the
// modules cfg keeps real (Config.Real), and for a dependency's package
// that uses cgo, which stays as it is. The test files of a package that is
// only imported are not compiled by go test, and not loaded.
func Packages(cfg Config, patterns ...string) (map[string][]byte, error) {
	r, err := Load(cfg, patterns...)
	if r == nil {
		return nil, err
	}
	return r.Files, err
}

// Result is what Load rewrote.
type Result struct {
	// Files holds the rewritten source of each file that needs it, by
	// absolute file name.
	Files map[string][]byte
	// Modules are the dependency modules of the build that have packages
	// in it, but for those kept real, by module path.
	Modules map[string]*Module
}

// Module is a dependency module of the build: where it is, and which of
// its directories and files the build reads.
type Module struct {
	Path, Version string
	Dir           string   // the module's root directory
	GoMod         string   // the file that holds its go.mod
	Dirs          []string // the directories of its packages in the build
	EmbedFiles    []string // the files its packages embed
}

// Load is Packages, which also returns the dependency modules of the
// build whose packages it rewrites.
func Load(cfg Config, patterns ...string) (*Result, error) {
	base := packages.Config{Dir: cfg.Dir, BuildFlags: cfg.BuildFlags, Env: cfg.Env, Overlay: cfg.Overlay, Tests: true}
	// First the import graph, cheaply, for the main module's packages.
	graph := base
	graph.Mode = packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports | packages.NeedDeps |
		packages.NeedModule | packages.NeedForTest
	roots, err := packages.Load(&graph, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	// The packages under test, by the import path of the package each
	// test variant tests (an external test package's path ends in _test,
	// which is no package go list knows), and the main module's packages
	// they import.
	var paths, deps []string
	for _, p := range roots {
		if path := underTest(p); ownedPath(p, path) && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	// weft's own packages, and the packages they import, run the
	// exploration: never rewritten, even if the code under test imports
	// them too.
	weftRuntime := map[string]bool{}
	packages.Visit(roots, func(p *packages.Package) bool {
		if !weftOwn(p.PkgPath) {
			return true
		}
		packages.Visit([]*packages.Package{p}, func(q *packages.Package) bool {
			if weftRuntime[q.PkgPath] {
				return false
			}
			weftRuntime[q.PkgPath] = true
			return true
		}, nil)
		return false
	}, nil)
	mods := map[string]*Module{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		path := underTest(p)
		if !ownedPath(p, path) && !cfg.dependency(p, path, weftRuntime) {
			return
		}
		if m := p.Module; !m.Main && len(p.GoFiles) > 0 {
			mod := mods[m.Path]
			if mod == nil {
				mod = &Module{Path: m.Path, Version: m.Version, Dir: m.Dir, GoMod: m.GoMod}
				mods[m.Path] = mod
			}
			if d := filepath.Dir(p.GoFiles[0]); !slices.Contains(mod.Dirs, d) {
				mod.Dirs = append(mod.Dirs, d)
			}
			mod.EmbedFiles = append(mod.EmbedFiles, p.EmbedFiles...)
		}
		if !slices.Contains(paths, path) && !slices.Contains(deps, path) {
			deps = append(deps, path)
		}
	})
	if len(paths) == 0 {
		// packages.Load of no pattern would load the directory's package.
		var errs []error
		packages.Visit(roots, nil, func(p *packages.Package) {
			for _, e := range p.Errors {
				errs = append(errs, fmt.Errorf("%s", e))
			}
		})
		return nil, fmt.Errorf("%s: %w", strings.Join(patterns, " "), cmp.Or(errors.Join(errs...), ErrNotMainModule))
	}
	full := base
	full.Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule | packages.NeedForTest
	pkgs, err := packages.Load(&full, paths...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(paths, " "), err)
	}
	if len(deps) > 0 {
		full.Tests = false
		more, err := packages.Load(&full, deps...)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", strings.Join(deps, " "), err)
		}
		pkgs = append(pkgs, more...)
	}
	var errs []error
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("%s", e))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// A test variant holds the package's files and its tests: rewrite
	// from it, the one with the most files first.
	slices.SortStableFunc(pkgs, func(a, b *packages.Package) int { return len(b.Syntax) - len(a.Syntax) })
	out := map[string][]byte{}
	done := map[string]bool{}
	real := cfg.realPackage(pkgs)
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") {
			continue // the generated test main
		}
		main := p.Module != nil && p.Module.Main
		if len(p.CompiledGoFiles) != len(p.GoFiles) {
			if !main {
				continue // a dependency's package that uses cgo stays real
			}
			return nil, cgoError(p)
		}
		funcs := pkgFuncs{groupFuncs(p.Syntax, p.TypesInfo), explorerFuncs(p.Syntax, p.TypesInfo), funcDecls(p.Syntax, p.TypesInfo)}
		pinTo := ""
		if main {
			// Only the main module's go line is raised.
			pinTo = langVersion(cfg.GoVersion)
		}
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			if done[name] {
				continue
			}
			done[name] = true
			src, ok := cfg.Overlay[name]
			if !ok {
				if src, err = os.ReadFile(name); err != nil {
					return nil, err
				}
			}
			version := p.TypesInfo.FileVersions[f]
			if !main {
				version = depVersion(p.Module)
			}
			if pinTo != "" {
				version = pinnedVersion(p.Fset, f, src, pinTo)
			}
			b, err := rewriteFile(p.Fset, f, src, p.TypesInfo, funcs, version, real)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if pinTo != "" {
				in := src
				if b != nil {
					in = b
				}
				pinned, err := pin(name, in, p.Fset.File(f.Pos()).Offset(f.Package), pinTo)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				if pinned != nil {
					b = pinned
				}
			}
			if b != nil {
				out[name] = b
			}
		}
	}
	return &Result{Files: out, Modules: mods}, errors.Join(errs...)
}

// realPackage returns the function that reports whether a package, by
// its path, is one weft test does not rewrite: the standard library's
// (but for those weft stands in for), a package of a module kept real
// (Config.Real), or with AllReal any outside the main module, whose
// packages are among pkgs.
func (cfg Config) realPackage(pkgs []*packages.Package) func(path string) bool {
	mainPath := ""
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main {
			mainPath = p.Module.Path
			break
		}
	}
	in := func(path, mod string) bool { return mod != "" && (path == mod || strings.HasPrefix(path, mod+"/")) }
	return func(path string) bool {
		switch {
		case stdPackage(path):
			return true
		case weftOwn(path) || in(path, mainPath) || standIns[path] != "" || path == "testing":
			return false
		case cfg.AllReal:
			return true
		}
		for _, m := range cfg.Real {
			if in(path, m) {
				return true
			}
		}
		return false
	}
}

// underTest returns the import path of the package that p, a package or
// one of its test variants, is or tests ("" for a generated test main).
func underTest(p *packages.Package) string {
	switch {
	case strings.HasSuffix(p.ID, ".test"):
		return ""
	case p.ForTest != "":
		return p.ForTest
	}
	return p.PkgPath
}

// ownedPath reports whether path, the package under test of p
// (underTest), is one of the main module's that weft test rewrites.
func ownedPath(p *packages.Package, path string) bool {
	return path != "" && p.Module != nil && p.Module.Main && !weftOwn(path)
}

// dependency reports whether path, the package under test of p
// (underTest), is a package of a module the main module depends on that
// weft test rewrites: not the standard library's (which has no module),
// nor one of weft's runtime (weft's own packages and what they import),
// nor one of a module kept real.
func (cfg Config) dependency(p *packages.Package, path string, weftRuntime map[string]bool) bool {
	return path != "" && p.Module != nil && !p.Module.Main && !weftRuntime[path] && !weftOwn(path) && !cfg.keptReal(p.Module.Path)
}

// ErrNotMainModule is the error of Packages when no package that its
// patterns match is one of the main module's, which weft test rewrites.
var ErrNotMainModule = errors.New("no package of the main module matches (weft's own packages are never rewritten): weft test runs the tests of the packages of the module it runs in (cd to the module of the packages)")

// weftOwn reports whether path is a package of weft's own, which runs the
// exploration and is never rewritten (but for the programs under testdata
// of weft's module, which are under test).
func weftOwn(path string) bool {
	const mod = "github.com/weft-go/weft"
	return (path == mod || strings.HasPrefix(path, mod+"/")) && !strings.Contains(path, "/testdata/")
}

// cgoError returns the error that refuses package p, which uses cgo,
// naming its first import of "C".
func cgoError(p *packages.Package) error {
	where := p.PkgPath
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		if i := slices.IndexFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"C"` }); i >= 0 {
			where = fset.Position(f.Imports[i].Pos()).String()
			break
		}
	}
	return fmt.Errorf("%s: package %s uses cgo (import \"C\"): weft test does not rewrite a package that uses cgo, whose C code would run outside weft's control; test the concurrency in a package without cgo, or build without it (CGO_ENABLED=0) if the package has files for that: %w", where, p.PkgPath, ErrUnsupported)
}

// depVersion returns the Go version a dependency's files compile at: its
// own module's go line (a module-cache copy's is raised to go1.21 at most,
// which changes nothing that version tells the rewriter), go1.16 without
// one, whatever the loader type-checked them with (the main module's
// version, for a module without a go.mod).
func depVersion(m *packages.Module) string {
	if m == nil || m.GoVersion == "" {
		return "go1.16"
	}
	return langVersion(m.GoVersion)
}
