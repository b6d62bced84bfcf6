package io.sprout.boot.servlet.multipart;

import jakarta.servlet.http.Part;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One parsed part: its headers and its content in memory or in a temporary file. */
public final class MultipartPart implements Part {

    private final Map<String, List<String>> headers;
    private final Charset charset;
    private final String name;
    private final String fileName;
    private PartSink.Content content;

    MultipartPart(Map<String, List<String>> headers, Charset charset) {
        this.headers = headers;
        this.charset = charset;
        String disposition = getHeader("content-disposition");
        this.name = dispositionParameter(disposition, "name");
        this.fileName = dispositionParameter(disposition, "filename");
    }

    void content(PartSink.Content value) {
        content = value;
    }

    /** Whether this is a plain form field (no file name), which also becomes a request parameter. */
    public boolean isFormField() {
        return fileName == null;
    }

    /** The field's value decoded with the request charset. */
    public String text() throws IOException {
        try (InputStream in = getInputStream()) {
            return new String(in.readAllBytes(), charset);
        }
    }

    @Override
    public InputStream getInputStream() throws IOException {
        return content.file() != null ? Files.newInputStream(content.file())
                : new ByteArrayInputStream(content.bytes());
    }

    @Override
    public String getContentType() {
        return getHeader("content-type");
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getSubmittedFileName() {
        return fileName;
    }

    @Override
    public long getSize() {
        return content.size();
    }

    /** Writes the content to {@code target}; a relative name resolves against the multipart location. */
    @Override
    public void write(String target) throws IOException {
        Path destination = Path.of(target);
        if (!destination.isAbsolute() && content.file() != null) {
            destination = content.file().getParent().resolve(target);
        }
        if (content.file() != null) {
            Files.move(content.file(), destination, StandardCopyOption.REPLACE_EXISTING);
            content = new PartSink.Content(null, destination, content.size());
        } else {
            Files.write(destination, content.bytes());
        }
    }

    @Override
    public void delete() throws IOException {
        if (content != null && content.file() != null) {
            Files.deleteIfExists(content.file());
        }
    }

    @Override
    public String getHeader(String headerName) {
        List<String> values = headers.get(headerName.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public List<String> getHeaders(String headerName) {
        return headers.getOrDefault(headerName.toLowerCase(Locale.ROOT), List.of());
    }

    @Override
    public List<String> getHeaderNames() {
        return List.copyOf(headers.keySet());
    }

    private static String dispositionParameter(String disposition, String parameter) {
        if (disposition == null) {
            return null;
        }
        for (String piece : disposition.split(";")) {
            String trimmed = piece.trim();
            int equals = trimmed.indexOf('=');
            if (equals > 0 && trimmed.substring(0, equals).trim().equalsIgnoreCase(parameter)) {
                String value = trimmed.substring(equals + 1).trim();
                return value.startsWith("\"") && value.endsWith("\"") && value.length() > 1
                        ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }
}
