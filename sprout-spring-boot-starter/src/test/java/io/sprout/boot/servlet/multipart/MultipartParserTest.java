package io.sprout.boot.servlet.multipart;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.http.Part;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatIOException;

class MultipartParserTest {

    private static final String BODY = "preamble\r\n"
            + "--b0und\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n--b0un-ish\r\n-\r\n--b0\r\n"
            + "--b0und\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nline1\r\n--b0un\r\nline2\r\n"
            + "--b0und--\r\nepilogue";

    @TempDir
    Path temp;

    private List<Part> parse(InputStream in, MultipartConfigElement config) throws IOException {
        return new MultipartParser(config, temp, StandardCharsets.UTF_8).parse(in, "b0und", -1);
    }

    private static String content(Part part) throws IOException {
        try (InputStream in = part.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private void assertParts(List<Part> parts) throws IOException {
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).getName()).isEqualTo("title");
        assertThat(parts.get(0).getSubmittedFileName()).isNull();
        assertThat(content(parts.get(0))).isEqualTo("Hello\r\n--b0un-ish\r\n-\r\n--b0");
        assertThat(parts.get(1).getSubmittedFileName()).isEqualTo("a.txt");
        assertThat(parts.get(1).getContentType()).isEqualTo("text/plain");
        assertThat(content(parts.get(1))).isEqualTo("line1\r\n--b0un\r\nline2");
    }

    @Test
    void parsesAWholeBody() throws IOException {
        assertParts(parse(new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)),
                new MultipartConfigElement("")));
    }

    @Test
    void parsesTheBodySplitAtEveryIndex() throws IOException {
        byte[] bytes = BODY.getBytes(StandardCharsets.UTF_8);
        for (int split = 0; split <= bytes.length; split++) {
            InputStream in = new SequenceInputStream(new ByteArrayInputStream(bytes, 0, split),
                    new ByteArrayInputStream(bytes, split, bytes.length - split));
            assertParts(parse(in, new MultipartConfigElement("")));
        }
    }

    @Test
    void spillsLargePartsToTemporaryFilesAndDeletesThem() throws IOException {
        List<Part> parts = parse(new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)),
                new MultipartConfigElement("", -1, -1, 4));
        assertParts(parts);
        try (var files = Files.list(temp)) {
            assertThat(files.count()).isEqualTo(2);
        }
        for (Part part : parts) {
            part.delete();
        }
        try (var files = Files.list(temp)) {
            assertThat(files.count()).isZero();
        }
    }

    @Test
    void rejectsAPartOverTheFileSizeLimit() {
        assertThatIllegalStateException().isThrownBy(() -> parse(
                new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)), new MultipartConfigElement("", 10, -1, 0)))
                .withMessageContaining("exceeds its maximum permitted size of 10 bytes");
    }

    @Test
    void rejectsABodyOverTheRequestSizeLimit() {
        assertThatIllegalStateException().isThrownBy(() -> parse(
                new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)), new MultipartConfigElement("", -1, 50, 0)))
                .withMessageContaining("request exceeds its maximum permitted size of 50 bytes");
        assertThatIllegalStateException().isThrownBy(() -> new MultipartParser(
                new MultipartConfigElement("", -1, 50, 0), temp, null).parse(InputStream.nullInputStream(), "x", 51));
    }

    @Test
    void rejectsATruncatedBody() {
        String truncated = BODY.substring(0, BODY.indexOf("line2"));
        assertThatIOException().isThrownBy(() -> parse(
                new ByteArrayInputStream(truncated.getBytes(StandardCharsets.UTF_8)), new MultipartConfigElement("")));
    }

    @Test
    void readsTheBoundaryParameter() {
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=abc")).isEqualTo("abc");
        assertThat(MultipartParser.boundary("multipart/form-data; charset=UTF-8; boundary=\"q r\"")).isEqualTo("q r");
        assertThat(MultipartParser.boundary("text/plain; boundary=abc")).isNull();
    }
}
