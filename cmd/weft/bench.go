// This file implements weft bench: the tables of Saarikivi et al. 2012, Fig. 8, Kähkönen et al. 2014
// Table 2 and Lei and Carver 2006, Table 4 and Fig. 13 for weft's strategies, with the
// papers' figures beside ours (Farzan et al. 2013's Table 1 is in bench_con2.go).

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/unfold"
)

// benchTable is one table: its strategies (columns), the paper's column
// titles and its rows.
type benchTable struct {
	name, title string
	strategies  []string
	paperCols   []string
	rows        []benchRow
	// speed marks a table of exploration speed: its cells give executions
	// per second, and -max-runs does not bound them.
	speed bool
	// extras are figures printed after a strategy's executions, by
	// strategy.
	extras map[string][]benchExtra
	// absent lists the paper's rows the table does not have, and why.
	absent string
	// means lists the rows whose "paper20" extra is measured (it runs
	// unfold 20 times more: too long on the large rows).
	means []string
	// peers, if set, gives the columns after a row's paper figures that
	// depend on the row's first cell (the speed table's GenMC columns).
	peers func(label string, c benchCell) []string
}

// benchExtra is a figure of a cell besides its executions: a counter of
// the strategy's (strategy.Counter) by name, "steps" (the steps of all
// executions), "wall" (the exploration's wall time), "DL" (the time
// unfold's search for deadlocks took, Kähkönen et al. 2014's DL column)
// or "paper20" (unfold's tests as the paper counts them: the mean over
// 20 explorations whose free parts are random, seeds 1 to 20, of the
// program in the paper's form (paperForm), without the executions run
// only to reach a deadlock the search found; -1 on a row the table does
// not list in means); header titles its column (the
// source if empty).
type benchExtra struct{ source, header string }

// title returns the column title of x.
func (x benchExtra) title() string {
	if x.header != "" {
		return x.header
	}
	return x.source
}

// isTime reports whether x is a time in seconds.
func (x benchExtra) isTime() bool { return x.source == "wall" || x.source == "DL" }

// benchRow is a program with parameters and the paper's figures for it.
type benchRow struct {
	label   string
	program string
	params  map[string]int
	paper   []string
}

// benchTables are the tables weft bench prints. Our ports differ in detail
// from the papers' programs; where a paper names no size,
// the row says which one we chose.
var benchTables = []benchTable{
	{
		name:       "fig8",
		title:      "Saarikivi et al. 2012, Fig. 8: test executions (mean over random exploration orders)",
		strategies: []string{"exhaustive", "dpor", "dpor-cr", "dpor-cr+sleep", "flip", "optimal"},
		paperCols:  []string{"none", "DPOR", "DPOR-CR", "DPOR-CR+sleep", "jCUTE"},
		rows: []benchRow{
			{"Indexer (12)", "indexer", map[string]int{"n": 12}, []string{">10000", "8614.6", "154", "27", "8"}},
			{"Indexer (13)", "indexer", map[string]int{"n": 13}, []string{">10000", ">10000", ">10000", "722.4", "343"}},
			{"File System (14)", "filesystem", map[string]int{"n": 14}, []string{">10000", "6.8", "3.2", "2.6", "2"}},
			{"File System (16)", "filesystem", map[string]int{"n": 16}, []string{">10000", "568.4", "26.8", "19.5", "31"}},
			{"File System (18)", "filesystem", map[string]int{"n": 18}, []string{">10000", ">10000", "250.2", "145.8", "2026"}},
			{"Parallel Pi (3)", "parallelpi", map[string]int{"threads": 3}, []string{">10000", ">10000", "3217.8", "19.2", "6"}},
			{"Parallel Pi (5)", "parallelpi", map[string]int{"threads": 5}, []string{">10000", ">10000", ">10000", "1220.6", "120"}},
			{"Bounded Buffer (2/2/2)", "bbjava", map[string]int{}, []string{">10000", "64.4", "67.2", "16", "8"}},
			{"Synchronous Queue (2/2)", "syncqueue", map[string]int{}, []string{">10000", ">10000", ">10000", "9", "N/A"}},
		},
		absent: "Bounded Buffer is Magee and Kramer's Java monitor (bbjava: 2 producers, 2 consumers, 2 slots), Synchronous Queue Java\n" +
			"5's lock-based SynchronousQueue (syncqueue: 2 producers, 2 consumers): the paper gives neither size. On bbjava optimal\n" +
			"finds 60 Mazurkiewicz traces under weft's dependency, and sleep sets never explore fewer executions than traces, so\n" +
			"the paper's 16 for DPOR-CR with sleep sets comes from another size or a coarser dependency (at 2 producers, 1\n" +
			"consumer, 1 slot every strategy of weft's explores 16). On syncqueue the shape is the paper's (only sleep sets, and\n" +
			"optimal, stay under 10000), but with 96 traces (optimal) against the paper's 9 executions: again another size or\n" +
			"dependency.",
	},
	{
		name:       "table2",
		title:      "Kähkönen et al. 2014, Table 2: tests to cover each program, and unfold's events, wall time and deadlock search time",
		strategies: []string{"dpor-1", "dpor-2", "unfold"},
		extras: map[string][]benchExtra{"unfold": {
			{source: "net events", header: "events"}, {source: "wall", header: "time"}, {source: "DL"}, {source: "paper20", header: "20 runs"}}},
		means:     []string{"Filesystem 1 (14)", "Filesystem 2 (16)", "Parallel Pi 1 (5)", "Dining 1 (4)", "Pairs (10)"},
		paperCols: []string{"DPOR-1", "DPOR-2", "tests", "events", "time", "DL"},
		rows: []benchRow{
			{"Filesystem 1 (14)", "filesystem", map[string]int{"n": 14}, []string{"135", "4050", "3", "178", "0m 0s", "+0.0s"}},
			{"Filesystem 2 (16)", "filesystem", map[string]int{"n": 16}, []string{"992", ">44661", "3", "226", "0m 0s", "+0.0s"}},
			{"Parallel Pi 1 (5)", "parallelpi", map[string]int{"threads": 5}, []string{"623", "165", "120", "1668", "0m 0s", "+0.0s"}},
			{"Parallel Pi 2 (6)", "parallelpi", map[string]int{"threads": 6}, []string{"4558", "993", "720", "9831", "0m 7s", "+0.1s"}},
			{"Dining 1 (4)", "dining", map[string]int{"n": 4, "meals": 2}, []string{"26410", "1161", "799", "8049", "0m 1s", "+0.2s"}},
			{"Dining 2 (5)", "dining", map[string]int{"n": 5, "meals": 2}, []string{">760714", "9890", "5747", "52886", "0m 9s", "+0.8s"}},
			{"Dining 3 (6)", "dining", map[string]int{"n": 6, "meals": 2}, []string{">611022", "79776", "36079", "306157", "1m 20s", "+3.7s"}},
			{"Pairs (10)", "pairs", map[string]int{"n": 10}, []string{"1024", "1024", "7", "47", "0m 0s", "+0.0s"}},
			{"Single lock 1 (4x2)", "singlelock", map[string]int{"threads": 4, "rounds": 2}, []string{"2520", "2520", "2520", "36825", "0m 4s", "+0.2s"}},
			{"Single lock 2 (4x2+1)", "singlelock", map[string]int{"threads": 4, "rounds": 2, "short": 1}, []string{"22680", "22680", "22680", "333376", "0m 54s", "+0.8s"}},
			{"Fib 1 (4)", "fib", map[string]int{"n": 4}, []string{">1303725", "21058", "19605", "87457", "0m 13s", "+0.1s"}},
			{"Fib 2 (5)", "fib", map[string]int{"n": 5}, []string{">903216", "232471", "218243", "1016562", "3m 15s", "+0.6s"}},
		},
		absent: "absent: Test selector, Szymanski, Updater 1/2, Synthetic 1/2 (the paper gives neither their code nor their sizes);\n" +
			"Filesystem's sizes are ours: the paper gives none, and its 178 and 226 events fit no size of the program. unfold:\n" +
			"weft's default (free parts greedy; with -orders, seeds 1..N break its ties at random: the same counts on Filesystem\n" +
			"and Dining 1), counting the executions run to reach the deadlocks its search found (Dining 1: 786 tests and 45). 20\n" +
			"runs: the paper's measure (§6), the mean of unfold's tests over seeds 1..20 with random free parts and no deadlock\n" +
			"executions, on the paper's form of the programs (dining's and filesystem's bodies do not join their threads); -: not\n" +
			"measured (too long). With joins, Filesystem 2 takes 8 tests for every seed: the body's local states tell apart the\n" +
			"2^3 orders in which its 3 pairs of threads sharing a block end. Left: Dining 1, 799.15 against 799; Filesystem 2,\n" +
			"2.7 against 3 on sizes of ours; Pairs 4.1 against 7 and 40 events against 47: the paper's free parts are random in\n" +
			"ways it does not describe, and its Pairs has 7 events more than a net of 4 per pair (its form is not printed)",
	},
	{
		name:       "table4",
		title:      "Lei and Carver 2006, Table 4: SYN-sequences exercised by reachability testing (weft's ports of the programs), with\nthe depth of the stack of nodes and its memory, which stay flat as the sequences grow",
		strategies: []string{"reach"},
		extras:     map[string][]benchExtra{"reach": {{source: "reach depth"}, {source: "reach stack KiB"}}},
		paperCols:  []string{"Seqs"},
		rows: []benchRow{
			{"BB-select", "bbselect", nil, []string{"144"}},
			{"BB-semaphore", "bbsem", nil, []string{"324"}},
			{"BB-monitorSU", "bbmonitor", map[string]int{"su": 1}, []string{"720"}},
			{"BB-monitorSC", "bbmonitor", map[string]int{"su": 0}, []string{"12096"}},
			{"RW-select", "rwselect", nil, []string{"768"}},
			{"RW-semaphore", "rwsem", nil, []string{"21744"}},
			{"RW-monitorSU", "rwmonitor", map[string]int{"su": 1}, []string{"13320"}},
			{"RW-monitorSC", "rwmonitor", map[string]int{"su": 0}, []string{"61716"}},
			{"DP-monitorSU (3P)", "dpmonitor", map[string]int{"n": 3}, []string{"30"}},
			{"DP-monitorSU (4P)", "dpmonitor", map[string]int{"n": 4}, []string{"624"}},
			{"DP-monitorSU (5P)", "dpmonitor", map[string]int{"n": 5}, []string{"19330"}},
			{"DME", "dme", nil, []string{"4032"}},
		},
		absent: "BB-semaphore: the paper does not print its programs; of the orders of a bounded buffer's semaphore operations, only\n" +
			"the one that holds each end's binary semaphore across the whole operation has 324 sequences (weft's bbsem; Andrews'\n" +
			"order, -p nested=0, has 9,252). DP-monitorSU: weft's is Hoare's monitor, whose sequences are the orders of its 2n\n" +
			"entries that it allows (30, 720, 22,300; 1,086,096 for 6, the paper's 901,752; 720 also by exhaustive search); the\n" +
			"paper's \"without starvation\" solution, not printed, forbids some entries (3 philosophers are all neighbours: 30 both);\n" +
			"no reduction is missing, Table 4 applies none, and a program's sequences are each exercised once (Theorem 2)",
	},
	{
		name:       "fig13",
		title:      "Lei and Carver 2006, Fig. 13: dining philosophers with a deadlock, reachability testing against VeriSoft (the paper\ngives the numbers for 9 philosophers only); steps: every step of every run",
		strategies: []string{"reach"},
		extras:     map[string][]benchExtra{"reach": {{source: "steps"}}},
		paperCols:  []string{"RichTest runs", "RichTest transitions", "VeriSoft runs", "VeriSoft transitions"},
		rows: []benchRow{
			{"DP (3)", "dining", map[string]int{"n": 3}, []string{"", "", "", ""}},
			{"DP (5)", "dining", map[string]int{"n": 5}, []string{"", "", "", ""}},
			{"DP (7)", "dining", map[string]int{"n": 7}, []string{"", "", "", ""}},
			{"DP (9)", "dining", map[string]int{"n": 9}, []string{"511", "5004", "19023", "131478"}},
		},
	},
	{
		name: "speed",
		title: "exploration speed: optimal's traces per second, beside the traces per CPU second of\n" + nidhugg.about("--sc --optimal") +
			"\nand the goal of five times it, and its CPU time beside weft's own at an earlier commit; then the executions and\nCPU time of " +
			genmc.about(genmcOpts) + "\nand optimal's CPU time per execution over GenMC's",
		strategies: []string{"optimal"},
		paperCols:  []string{"Nidhugg traces/s", "goal traces/s", "GenMC", "GenMC cpu", "vs GenMC"},
		speed:      true,
		peers:      genmc.countCols,
		rows: []benchRow{
			{"fib_bench N=4", "fib", map[string]int{"n": 4}, nidhugg.speedCols("fib_bench N=4")},
			{"fib_bench N=5", "fib", map[string]int{"n": 5}, nidhugg.speedCols("fib_bench N=5")},
			{"indexer N=15", "indexer", map[string]int{"n": 15}, nidhugg.speedCols("indexer N=15")},
			{"pairs n=12", "pairs", map[string]int{"n": 12}, nidhugg.speedCols("pairs n=12")},
			{"filesystem N=20", "filesystem", map[string]int{"n": 20}, nidhugg.speedCols("filesystem N=20")},
		},
	},
}

// benchCell is one strategy's figures on one row.
type benchCell struct {
	Strategy  string  `json:"strategy"`
	MeanExecs float64 `json:"mean_executions"`
	MeanCut   float64 `json:"mean_cut"`
	Bounded   bool    `json:"bounded"` // some order hit -max-runs
	Failures  int     `json:"failures"`
	WallS     float64 `json:"wall_s"`
	ExecPerS  float64 `json:"exec_per_s"`
	// CPUS is the CPU time of the process during the exploration (speed
	// table), mean over the orders; BaseCPUS the baseline's figure for
	// the row (speed_baseline.txt), 0 if it has none.
	CPUS     float64 `json:"cpu_s,omitempty"`
	BaseCPUS float64 `json:"baseline_cpu_s,omitempty"`
	// Extras are the table's extra figures, mean over the orders.
	Extras []float64 `json:"extras,omitempty"`
}

// benchResult is one row's figures, as printed by -json.
type benchResult struct {
	Table string `json:"table"`
	Row   string `json:"row"`
	// Program is the built-in program the row explores (weft list), with
	// Params.
	Program string         `json:"program"`
	Params  map[string]int `json:"params"`
	Cells   []benchCell    `json:"cells"`
	Paper   []string       `json:"paper"`
}

// cmdBench runs weft bench.
func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	table := fs.String("table", "all", "the table: fig8, table2, table4, fig13, speed, table1 (Farzan et al. 2013, con2) or all")
	rows := fs.String("rows", "", "run only the rows whose label contains this text")
	orders, maxRuns := new(int), new(int)
	boundedInt(fs, orders, "orders", 5, 1, "", "random exploration orders (seeds 1..`N`) averaged per cell")
	boundedInt(fs, maxRuns, "max-runs", 10000, 0, "0: no bound", "bound the executions of one cell and order to `N` (the papers' limit; 0: no bound)")
	asJSON := fs.Bool("json", false, "print one JSON object per row instead of tables")
	wide := fs.Bool("wide", false, "print each cell's wall time and the papers' column names whole (wider than 120 columns)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: weft bench [-table fig8|table2|table4|fig13|speed|table1|all] [-rows TEXT] [-orders N] [-max-runs N] [-json] [-wide]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stdout); err != nil {
		return report(err, stderr)
	}
	if fs.NArg() > 0 {
		return report(usageErrorf("weft bench takes no arguments, got %q", fs.Args()), stderr)
	}
	var chosen []benchTable
	for _, t := range benchTables {
		if *table == "all" || *table == t.name {
			chosen = append(chosen, t)
		}
	}
	con2Table := *table == "all" || *table == "table1"
	if len(chosen) == 0 && !con2Table {
		return report(usageErrorf("unknown table %q: use fig8, table2, table4, fig13, speed, table1 or all", *table), stderr)
	}
	if err := checkRows(*rows, *table, chosen, con2Table); err != nil {
		return report(err, stderr)
	}
	enc := json.NewEncoder(stdout)
	for _, t := range chosen {
		var results []benchResult
		for _, row := range t.rows {
			if *rows != "" && !strings.Contains(row.label, *rows) {
				continue
			}
			res, err := benchOne(t, row, *orders, *maxRuns)
			if err != nil {
				return report(err, stderr)
			}
			if *asJSON {
				enc.Encode(res)
			}
			results = append(results, res)
		}
		if !*asJSON && len(results) > 0 {
			printBench(stdout, t, results, *maxRuns, *wide)
		}
	}
	if con2Table {
		if err := benchCon2(stdout, *rows, *asJSON); err != nil {
			return report(err, stderr)
		}
	}
	return exitOK
}

// checkRows returns a usage error naming the valid rows when rows, the
// text of -rows, is in no label of the tables chosen (con2: with Table 1
// of con2), and nil when it is in one or is empty.
func checkRows(rows, table string, chosen []benchTable, con2 bool) error {
	if rows == "" {
		return nil
	}
	var valid []string
	found := false
	add := func(name string, labels []string) {
		for _, l := range labels {
			found = found || strings.Contains(l, rows)
		}
		valid = append(valid, name+": "+strings.Join(labels, ", "))
	}
	for _, t := range chosen {
		var labels []string
		for _, r := range t.rows {
			labels = append(labels, r.label)
		}
		add(t.name, labels)
	}
	if con2 {
		var labels []string
		for _, r := range con2Rows {
			labels = append(labels, r.label)
		}
		add("table1", labels)
	}
	if found {
		return nil
	}
	return usageErrorf("weft bench: -rows %q matches no row of -table %s (a row runs when its label contains the text; case matters); the rows:\n  %s", rows, table, strings.Join(valid, "\n  "))
}

// benchOne measures every strategy of t on row.
func benchOne(t benchTable, row benchRow, orders, maxRuns int) (benchResult, error) {
	p, ps, err := lookup(row.program, row.params)
	if err != nil {
		return benchResult{}, err
	}
	res := benchResult{Table: t.name, Row: row.label, Program: row.program, Params: ps, Paper: row.paper}
	if t.speed {
		maxRuns = 0
	}
	for _, s := range t.strategies {
		if !slices.Contains(weft.Strategies(), s) {
			return res, usageErrorf("strategy %q of table %s is not built in", s, t.name)
		}
		cell := benchCell{Strategy: s}
		var execs, cut int
		var wall, cpu time.Duration
		n, first := orders, 1
		if s == "exhaustive" || s == "optimal" || s == "reach" {
			// Their count does not depend on the order: one run in thread
			// order (seed 0) gives the figure.
			n, first = 1, 0
		}
		extras := t.extras[s]
		if len(extras) > 0 {
			cell.Extras = make([]float64, len(extras))
		}
		for seed := first; seed < first+n; seed++ {
			opts := []weft.Option{weft.WithStrategy(s), weft.WithSeed(int64(seed)), weft.WithMaxRuns(maxRuns), weft.KeepGoing()}
			var un *unfold.Strategy
			if s == "unfold" {
				// Built here as weft.WithStrategy builds it, to read the
				// time of its deadlock search.
				b, err := registry.Lookup(s)
				if err != nil {
					return res, err
				}
				un = b(registry.Params{Seed: int64(seed)}).(*unfold.Strategy)
				opts[0] = weft.WithCustomStrategy(un)
			}
			cpu0 := cpuTime()
			r, err := weft.Explore(p.Body(ps), opts...)
			cpu += cpuTime() - cpu0
			if err != nil {
				return res, err
			}
			if un != nil {
				if err := un.Err(); err != nil {
					return res, fmt.Errorf("unfold on %s: %w", row.label, err)
				}
			}
			execs += r.Executions
			cut += r.Cut
			for i, x := range extras {
				var v float64
				switch x.source {
				case "steps":
					v = float64(r.Events)
				case "wall":
					v = r.Wall.Seconds()
				case "DL":
					if un != nil {
						v = un.Stats().DeadlockTime.Seconds()
					}
				case "paper20":
					continue // once per row, below
				default:
					for _, c := range r.Counters {
						if c.Name == x.source {
							v = float64(c.Value)
						}
					}
				}
				cell.Extras[i] += v / float64(n)
			}
			wall += r.Wall
			cell.Failures += len(r.Failures)
			cell.Bounded = cell.Bounded || !r.Exhausted
		}
		for i, x := range extras {
			if x.source != "paper20" {
				continue
			}
			cell.Extras[i] = -1
			if slices.Contains(t.means, row.label) {
				body, err := paperForm(row)
				if err != nil {
					return res, err
				}
				if cell.Extras[i], err = paperMean(body, maxRuns); err != nil {
					return res, fmt.Errorf("unfold on %s: %w", row.label, err)
				}
			}
		}
		cell.MeanExecs = float64(execs) / float64(n)
		cell.MeanCut = float64(cut) / float64(n)
		cell.WallS = wall.Seconds() / float64(n)
		if t.speed {
			cell.CPUS = cpu.Seconds() / float64(n)
			cell.BaseCPUS = baseline.cpu[row.label]
		}
		if wall > 0 {
			cell.ExecPerS = float64(execs) / wall.Seconds()
		}
		res.Cells = append(res.Cells, cell)
	}
	if t.peers != nil {
		res.Paper = append(slices.Clip(res.Paper), t.peers(row.label, res.Cells[0])...)
	}
	return res, nil
}

// paperRuns is the number of explorations whose tests Kähkönen et al.
// 2014, §6, averages.
const paperRuns = 20

// paperForm returns the body of row's program in Kähkönen et al. 2014's
// form: dining's and filesystem's start their threads and do not join
// them, as the paper's (programs.NoJoin).
func paperForm(row benchRow) (func(*weft.T), error) {
	p, ps, err := lookup(row.program, row.params)
	if err != nil {
		return nil, err
	}
	if row.program == "dining" || row.program == "filesystem" {
		ps = maps.Clone(ps)
		ps[programs.NoJoin] = 1
	}
	return p.Body(ps), nil
}

// paperMean returns the mean number of unfold's tests on body as
// Kähkönen et al. 2014, §6, counts them: over 20 explorations (seeds 1 to
// 20) whose free parts follow a random schedule (unfold.Options.Plain),
// without the executions run only to reach a deadlock the search found,
// which the paper does not run.
func paperMean(body func(*weft.T), maxRuns int) (float64, error) {
	tests := 0
	for seed := int64(1); seed <= paperRuns; seed++ {
		s := unfold.New(unfold.Options{Seed: seed, Plain: true})
		if _, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.WithMaxRuns(maxRuns), weft.KeepGoing(), weft.NoReplayFiles()); err != nil {
			return 0, err
		}
		if err := s.Err(); err != nil {
			return 0, err
		}
		st := s.Stats()
		tests += st.Tests - st.DeadlockTests
	}
	return float64(tests) / paperRuns, nil
}

// printBench prints a table: ours, then the paper's columns. Unless wide,
// a cell of the papers' tables shows its executions alone and the papers'
// columns are named [C], so that the table fits 120 columns.
func printBench(w io.Writer, t benchTable, results []benchResult, maxRuns int, wide bool) {
	fmt.Fprintf(w, "%s\n", t.title)
	pad := 2
	if !wide {
		pad = 1
	}
	tw := tabwriter.NewWriter(w, 0, 0, pad, ' ', tabwriter.AlignRight)
	header := "program\t"
	for _, s := range t.strategies {
		header += s + "\t"
		if t.speed && !wide {
			header += "executions\twall\tcpu\tvs base\t"
		}
		for _, x := range t.extras[s] {
			header += x.title() + "\t"
		}
	}
	for _, c := range t.paperCols {
		switch {
		case t.speed:
			header += c + "\t" // peer figures, not a paper's
		case wide:
			header += "paper " + c + "\t"
		default:
			// Fig. 8's DPOR variants by their suffix: [CR], [CR+sleep].
			if c != "DPOR" {
				c = strings.TrimPrefix(c, "DPOR-")
			}
			header += "[" + c + "]\t"
		}
	}
	fmt.Fprintln(tw, header)
	for _, r := range results {
		line := r.Row + "\t"
		for _, c := range r.Cells {
			extras := t.extras[c.Strategy]
			if c.Bounded {
				// A bounded exploration's figures are partial.
				line += fmt.Sprintf(">%d\t", maxRuns) + strings.Repeat("-\t", len(extras))
				continue
			}
			wall := roundDuration(time.Duration(c.WallS * float64(time.Second)))
			if t.speed {
				if !wide {
					line += fmt.Sprintf("%.0f\t%s\t%s\t%s\t%s\t", c.ExecPerS, trimFloat(c.MeanExecs), wall, formatSeconds(c.CPUS), c.ratio())
					continue
				}
				line += fmt.Sprintf("%.0f (%s executions, %s, cpu %s, %s the baseline's)\t", c.ExecPerS, trimFloat(c.MeanExecs), wall, formatSeconds(c.CPUS), c.ratio())
				continue
			}
			if !wide {
				line += trimFloat(c.MeanExecs) + "\t"
			} else {
				line += fmt.Sprintf("%s (%s)\t", trimFloat(c.MeanExecs), wall)
			}
			for i, v := range c.Extras {
				switch {
				case i < len(extras) && extras[i].source == "DL":
					line += "+" + formatSeconds(v) + "\t"
				case v < 0:
					line += "-\t" // not measured on this row
				case i < len(extras) && extras[i].isTime():
					line += formatSeconds(v) + "\t"
				default:
					line += trimFloat(v) + "\t"
				}
			}
		}
		for _, v := range r.Paper {
			line += v + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	switch {
	case t.speed && wide:
		fmt.Fprintln(w, "cells: executions per second (executions, wall time of the exploration, its CPU time, that CPU time over the baseline's)")
		fmt.Fprintf(w, "baseline: weft at %s, %s, %s\n", baseline.commit, baseline.date, baseline.machine)
		fmt.Fprintln(w, baselinePrograms)
	case t.speed:
		fmt.Fprintln(w, "optimal: executions (traces) per second; executions, wall and CPU time of the exploration; vs base: CPU time over")
		fmt.Fprintf(w, "the baseline's, weft at %s on %s\n(%s)\n", baseline.commit, baseline.date, baseline.machine)
		fmt.Fprintln(w, baselinePrograms)
	case wide:
		fmt.Fprintln(w, "cells: executions (wall time per exploration); >N: the bound -max-runs stopped it")
	default:
		fmt.Fprintln(w, "cells: executions; [C]: the paper's column C; >N: the bound -max-runs stopped it; -wide adds wall times")
	}
	if t.absent != "" {
		fmt.Fprintln(w, t.absent)
	}
	fmt.Fprintln(w)
}

// formatSeconds prints a time in seconds in at most 6 columns: 0.01s,
// 1.23s, 12.3s, 2m03s.
func formatSeconds(s float64) string {
	switch {
	case s < 10:
		return fmt.Sprintf("%.2fs", s)
	case s < 60:
		return fmt.Sprintf("%.1fs", s)
	}
	return fmt.Sprintf("%dm%02ds", int(s)/60, int(s)%60)
}

// baselinePrograms says what the ratio to the baseline counts besides
// weft's own speed.
const baselinePrograms = "The baseline ran that commit's own programs, which may do more or less in an execution than these:\n" +
	"scripts/speed-baseline.sh -same-programs COMMIT measures weft alone, on these programs."

// ratio prints c's CPU time over the baseline's (1.50x: half as much
// again), or - if either is unknown.
func (c benchCell) ratio() string {
	if c.CPUS <= 0 || c.BaseCPUS <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", c.CPUS/c.BaseCPUS)
}

// trimFloat prints a mean without a needless fraction.
func trimFloat(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}
