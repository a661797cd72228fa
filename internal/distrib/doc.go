// Package distrib explores a program on many processes and machines over
// NATS JetStream: a coordinator (Coordinate) explores the root of a
// strategy's exploration and publishes units of work (explore.Coordinator
// parts) on a work-queue stream; workers (Work), in any process, take one
// unit at a time, explore it (explore.PartExplorer) and publish what they
// found on a results stream, which the coordinator joins back.
//
// Workers steal work from each other, as the clients of Lei and Carver's
// distributed reachability testing do (Lei and Carver 2006, §8: a client that runs
// dry gets variants another client holds): a worker explores its unit a
// batch at a time (explore.Part) and, while workers wait for a unit and none
// waits for a worker (the workers' consumer's pending pull requests and
// messages, looked at every few milliseconds), splits large units off its
// own (explore.Part.SplitLarge) onto the same queue, naming itself and its
// job; their results come on a subject of its own (ChildSubject), and it
// joins them into the job before it publishes the job's result, which
// carries theirs. Where 004 has its server steal a variant from a client
// for another, the client here gives its own at once, through the queue:
// the server (NATS) is no party to the exploration. A unit whose worker
// is gone (its consumer of results expired with it) is an orphan, dropped
// by the worker that takes it: the dead worker's own unit is explored
// again whole. With Options.HandOut the coordinator hands all its work out
// after one execution and only joins.
//
// A strategy that writes letters to the large units it splits off
// (strategy.Mailer: optimal) makes the division exact, no execution
// repeated, as parallel workers do (letters.go): the coordinator and each
// worker's jobs publish their letters on the unit's subject of
// LettersStream (LetterSubject), where they stay until the run ends, and
// the job that explores the unit reads them, from the first, once it
// waits for one, while its worker explores other units meanwhile. A unit
// delivered again reads them all again; a coordinator that resumes a run
// writes its letters again, numbered as before (it publishes a letter
// only once the journal holds what wrote it), and each is read once. A
// unit that waits for a letter from a worker that is gone is an orphan,
// dropped as above.
//
// Nothing is lost when a worker dies: a unit is acknowledged only after its
// result is published, and a unit not acknowledged within the ack deadline
// (a worker exploring it reports progress before then) is delivered again
// to another worker. A unit finished twice (redelivered, or its result
// published twice) is joined once: results carry the unit's id. A message
// that is not weft's, or not of this run, is rejected with an error that
// says why, and not counted.
//
// Nothing is lost when the coordinator dies either: it keeps a journal of
// the run on a stream (its spec, then each batch of its own executions,
// each unit split off and each result joined, a unit published only after
// the entry that made it), and a coordinator started with Options.Resume
// replays it, which brings its exploration to the same state, then
// publishes again only the units neither on the queue nor done. The
// streams are stored in files; a run that ends is removed from them.
//
// StartEmbedded runs a NATS server with JetStream inside the process, on
// loopback, its streams under a directory, for `weft run -nats embedded`.
//
// The caller resolves the program of a run to its test body
// (Options.Bodies, WorkerOptions.Bodies; weft run resolves its built-in
// programs): this package runs explorations through package explore and
// knows neither package weft nor the programs.
package distrib
