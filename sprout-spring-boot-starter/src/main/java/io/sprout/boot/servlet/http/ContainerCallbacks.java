package io.sprout.boot.servlet.http;

/**
 * Runs a callback into the application from a container task: with the application's class loader as the
 * thread's context class loader, as every container-initiated call has.
 */
@FunctionalInterface
public interface ContainerCallbacks {

    void run(Runnable callback);
}
