package io.sprout.engine;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's open-file limit, asked of {@code com.sun.management.UnixOperatingSystemMXBean} by reflection (the
 * engine requires nothing beyond {@code java.base}, so the management modules may not be in the module graph), else
 * read from Linux's {@code /proc/self/limits}; unknown elsewhere.
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

    /** The limit, or -1 when it cannot be told. */
    static long openFileLimit() {
        long limit = fromManagementBean();
        return limit > 0 ? limit : fromProcLimits();
    }

    private static long fromManagementBean() {
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

    /** The soft limit from the "Max open files" line of {@code /proc/self/limits}, or -1. */
    private static long fromProcLimits() {
        Path limits = Path.of("/proc/self/limits");
        try {
            if (!Files.isReadable(limits)) {
                return -1;
            }
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max open files")) {
                    String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                    return "unlimited".equals(fields[0]) ? Integer.MAX_VALUE : Long.parseLong(fields[0]);
                }
            }
            return -1;
        } catch (IOException | RuntimeException unreadable) {
            // Not Linux, or a format we do not know: the limit stays unknown and the fallback holds.
            return -1;
        }
    }
}
