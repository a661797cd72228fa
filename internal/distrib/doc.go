// Package distrib explores a program on many processes and machines over
// NATS JetStream: a coordinator (Coordinate) explores the root of a
// strategy's exploration and publishes units of work (weft.Coordinator
// parts) on a work-queue stream; workers (Work), in any process, take one
// unit at a time, explore it (weft.PartExplorer) and publish what they
// found on a results stream, which the coordinator joins back.
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
package distrib
