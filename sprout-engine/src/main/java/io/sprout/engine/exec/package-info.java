/**
 * Worker executors: a fixed platform-thread pool with a bounded queue, or one virtual thread per task, behind one
 * interface that never blocks the caller and reports overload as a refusal; the small rescue executor for what a
 * full pool refuses; and the names, with the server's port, of every thread a server starts. Depends on nothing
 * else in the engine.
 */
package io.sprout.engine.exec;
