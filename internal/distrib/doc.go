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
// StartEmbedded runs a NATS server with JetStream inside the process, on
// loopback, for `weft run -nats embedded`.
package distrib
