/** The engine's hello server: a command-line entry point for benchmarks and smoke checks. */
package io.sprout.engine.hello;
