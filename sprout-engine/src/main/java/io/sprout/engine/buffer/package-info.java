/**
 * Pooled I/O buffers: lease, release, and the counters that expose hit rate and leaks. Depends on nothing else in
 * the engine.
 */
package io.sprout.engine.buffer;
