package io.sprout.boot.servlet.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The file persistent sessions wait in while no context holds them ({@code server.servlet.session.persistent}),
 * like Tomcat's {@code SESSIONS.ser}: written when a context is destroyed, read (and deleted) when the next one
 * starts, for example after a Spring DevTools restart.
 *
 * <p>Each attribute value is serialised on its own, so a value that cannot be (not {@code Serializable}, or
 * holding something that is not) is left out with a warning instead of spoiling the session or the file; on
 * reading, a value whose class is gone or has changed is left out the same way. The file is written to a
 * temporary name and moved into place, so a crash never leaves half a file to read. It holds Java serialised
 * objects and is read back with the application's class loader: like Tomcat's, it must live in a directory only
 * the application can write.
 */
final class SessionFile {

    private static final Logger LOG = LoggerFactory.getLogger(SessionFile.class);
    private static final int MAGIC = 0x53505331; // "SPS1"

    private SessionFile() {
    }

    static void write(Path file, List<SessionState> sessions) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(partial)))) {
            out.writeInt(MAGIC);
            out.writeInt(sessions.size());
            for (SessionState session : sessions) {
                writeSession(out, session);
            }
        }
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void writeSession(DataOutputStream out, SessionState session) throws IOException {
        out.writeUTF(session.id());
        out.writeLong(session.creationTime());
        out.writeLong(session.lastAccessedTime());
        out.writeLong(session.thisAccessedTime());
        out.writeInt(session.maxInactiveSeconds());
        out.writeBoolean(session.fresh());
        Map<String, byte[]> values = new LinkedHashMap<>();
        session.attributes().forEach((name, value) -> {
            byte[] bytes = serialize(session.id(), name, value);
            if (bytes != null) {
                values.put(name, bytes);
            }
        });
        out.writeInt(values.size());
        for (Map.Entry<String, byte[]> value : values.entrySet()) {
            out.writeUTF(value.getKey());
            out.writeInt(value.getValue().length);
            out.write(value.getValue());
        }
    }

    /** The value's serialised form, or {@code null} (and a warning) when it cannot be serialised. */
    private static byte[] serialize(String sessionId, String name, Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            LOG.warn("Not persisting attribute '{}' of session {}: its value ({}) cannot be serialised: {}", name,
                    sessionId, value.getClass().getName(), e.toString());
            return null;
        }
        return bytes.toByteArray();
    }

    /** The sessions of the file, with the attributes that could be read; class lookups use {@code loader}. */
    static List<SessionState> read(Path file, ClassLoader loader) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (in.readInt() != MAGIC) {
                throw new IOException(file + " is not a Sprout session file");
            }
            int count = in.readInt();
            List<SessionState> sessions = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                sessions.add(readSession(in, loader));
            }
            return sessions;
        }
    }

    private static SessionState readSession(DataInputStream in, ClassLoader loader) throws IOException {
        String id = in.readUTF();
        long creationTime = in.readLong();
        long lastAccessedTime = in.readLong();
        long thisAccessedTime = in.readLong();
        int maxInactiveSeconds = in.readInt();
        boolean fresh = in.readBoolean();
        int count = in.readInt();
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String name = in.readUTF();
            byte[] bytes = in.readNBytes(in.readInt());
            try (ObjectInputStream value = new ApplicationObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
                attributes.put(name, value.readObject());
            } catch (IOException | ClassNotFoundException e) {
                LOG.warn("Not restoring attribute '{}' of session {}: {}", name, id, e.toString());
            }
        }
        return new SessionState(id, creationTime, lastAccessedTime, thisAccessedTime, maxInactiveSeconds, fresh,
                attributes);
    }

    /** Resolves classes with the application's loader (after a DevTools restart, the new restart loader). */
    private static final class ApplicationObjectInputStream extends ObjectInputStream {

        private final ClassLoader loader;

        ApplicationObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(description.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                // Primitive types and JDK classes the application loader does not see resolve the default way.
                return super.resolveClass(description);
            }
        }
    }
}
