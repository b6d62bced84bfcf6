package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Path;

/**
 * One resource of the context, with its attributes read once when it was looked up, so the validators and the
 * length of one response agree with each other.
 */
public sealed interface ContextResource permits FileResource, JarResource {

    boolean directory();

    /** Bytes of content; 0 for a directory. */
    long length();

    /** Milliseconds since the epoch; 0 when unknown. */
    long lastModified();

    URL url();

    InputStream open() throws IOException;

    /** The file on disk, or {@code null} for a resource inside a jar. */
    Path file();
}
