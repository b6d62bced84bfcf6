package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.multipart.MultipartParser;
import io.sprout.boot.servlet.multipart.MultipartPart;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Part;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A request's multipart parts: parsed once on demand, offered as parameters, deleted when the exchange ends. */
final class RequestParts {

    private List<Part> parts;

    boolean parsed() {
        return parts != null;
    }

    /**
     * @param config the target servlet's multipart config, or {@code null}
     * @param tempDirectory what a relative multipart location resolves against
     */
    List<Part> get(MultipartConfigElement config, String contentType, InputStream body, long contentLength,
            Charset charset, Path tempDirectory) throws IOException, ServletException {
        if (parts != null) {
            return parts;
        }
        if (config == null) {
            throw new IllegalStateException("Unable to process parts: no multipart configuration was provided "
                    + "for the servlet");
        }
        String boundary = MultipartParser.boundary(contentType);
        if (boundary == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            throw new ServletException("The request content type is not multipart/form-data: " + contentType);
        }
        Path location = config.getLocation() == null || config.getLocation().isEmpty()
                ? tempDirectory : tempDirectory.resolve(config.getLocation());
        parts = List.copyOf(new MultipartParser(config, location, charset).parse(body, boundary, contentLength));
        return parts;
    }

    /** Adds the plain form fields (parts without a file name) to the parameters. */
    void formFieldsInto(Map<String, List<String>> parameters) throws IOException {
        for (Part part : parts) {
            if (part instanceof MultipartPart field && field.isFormField() && field.getName() != null) {
                parameters.computeIfAbsent(field.getName(), key -> new ArrayList<>(1)).add(field.text());
            }
        }
    }

    void deleteAll() {
        if (parts == null) {
            return;
        }
        for (Part part : parts) {
            try {
                part.delete();
            } catch (IOException e) {
                // A temp file that cannot be deleted is left for the OS; the response is already sent.
            }
        }
    }
}
