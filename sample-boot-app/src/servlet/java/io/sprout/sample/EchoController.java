package io.sprout.sample;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /benchmark/echo} on Spring MVC: copies the request body to the response as it arrives, never holding
 * more than one transfer buffer, on the server's worker thread (blocking).
 */
@RestController
@RequestMapping("/benchmark")
public class EchoController {

    private static final int BUFFER_SIZE = 16 * 1024;

    @PostMapping("/echo")
    public void echo(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String contentType = request.getContentType();
        response.setContentType((contentType != null) ? contentType : MediaType.APPLICATION_OCTET_STREAM_VALUE);
        long length = request.getContentLengthLong();
        InputStream in = request.getInputStream();
        OutputStream out = response.getOutputStream();
        if (length < 0) {
            in.transferTo(out);
            return;
        }
        // Copy exactly the declared length: once that much is written the container may complete the exchange and
        // close the request stream (Tomcat does), so a further read() must not happen.
        response.setContentLengthLong(length);
        byte[] buffer = new byte[BUFFER_SIZE];
        long remaining = length;
        while (remaining > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
            if (read < 0) {
                throw new EOFException("Request body ended " + remaining + " bytes early");
            }
            out.write(buffer, 0, read);
            remaining -= read;
        }
    }

}
