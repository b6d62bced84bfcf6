package io.sprout.engine;

import java.lang.reflect.Method;

/**
 * The process's open-file limit, asked of {@code com.sun.management.UnixOperatingSystemMXBean} by reflection: the
 * engine requires nothing beyond {@code java.base}, and where the management modules are absent (or the platform is
 * not Unix) the limit is simply unknown.
 */
final class OpenFileLimit {

    static final int FALLBACK_MAX_CONNECTIONS = 8192;
    private static final int MAX_CONNECTIONS_CAP = 10_000_000;

    private OpenFileLimit() {
    }

    /** Nine tenths of the open-file limit, or {@link #FALLBACK_MAX_CONNECTIONS} when it is unknown. */
    static int defaultMaxConnections() {
        long limit = openFileLimit();
        if (limit <= 0) {
            return FALLBACK_MAX_CONNECTIONS;
        }
        return (int) Math.clamp(limit - limit / 10, 1, MAX_CONNECTIONS_CAP);
    }

    /** The limit, or -1 when the JDK cannot tell it. */
    static long openFileLimit() {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Object bean = factory.getMethod("getOperatingSystemMXBean").invoke(null);
            Class<?> unix = Class.forName("com.sun.management.UnixOperatingSystemMXBean");
            if (!unix.isInstance(bean)) {
                return -1;
            }
            Method count = unix.getMethod("getMaxFileDescriptorCount");
            return (Long) count.invoke(bean);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException unknown) {
            // No management modules in this runtime, or not a Unix: the limit cannot be known, so the fallback holds.
            return -1;
        }
    }
}
