package io.sprout.sample;

import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * {@code GET /benchmark/stream?size=1048576} on Spring MVC: the bytes of {@code /bytes}, streamed. The handler
 * returns a {@link StreamingResponseBody} at once, the container releases its worker (servlet async), and Spring's
 * task executor writes the body piece by piece: the streaming response that the abuse harness's slow readers
 * stall. Same bounds as {@code /bytes}.
 */
@RestController
@RequestMapping("/benchmark")
public class StreamController {

    private final BenchmarkWork work;

    StreamController(BenchmarkWork work) {
        this.work = work;
    }

    @GetMapping(path = "/stream", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    public ResponseEntity<StreamingResponseBody> stream(
            @RequestParam(defaultValue = "1048576") @Min(0) @Max(BenchmarkWork.MAX_PAYLOAD_BYTES) int size) {
        StreamingResponseBody body = (out) -> {
            WritableByteChannel channel = Channels.newChannel(out);
            for (ByteBuffer chunk : this.work.payloadChunks(size)) {
                channel.write(chunk);
            }
        };
        // Set here: "produces" only selects the handler, and no message converter writes a StreamingResponseBody.
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).contentLength(size).body(body);
    }

}
