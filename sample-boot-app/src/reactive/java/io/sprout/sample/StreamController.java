package io.sprout.sample;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /benchmark/stream?size=1048576} on WebFlux: the bytes of {@code /bytes} as a stream of buffers, each
 * produced when the connection asks for more (back-pressure), so a slow reader holds no thread. Same bounds as
 * {@code /bytes}.
 */
@RestController
@RequestMapping("/benchmark")
public class StreamController {

    private final BenchmarkWork work;

    StreamController(BenchmarkWork work) {
        this.work = work;
    }

    @GetMapping(path = "/stream", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    public ResponseEntity<Flux<DataBuffer>> stream(
            @RequestParam(defaultValue = "1048576") @Min(0) @Max(BenchmarkWork.MAX_PAYLOAD_BYTES) int size) {
        Flux<DataBuffer> body = Flux.fromIterable(this.work.payloadChunks(size))
            .map(DefaultDataBufferFactory.sharedInstance::wrap);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).contentLength(size).body(body);
    }

}
