package io.sprout.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The benchmark application. Which web server runs it is decided at build time by the Maven profile
 * ({@code tomcat}, {@code jetty}, {@code netty} or {@code sprout}); Sprout's I/O mode and thread type are
 * chosen at start-up with {@code sprout.server.execution-mode} and {@code sprout.server.thread-type}.
 */
@SpringBootApplication
public class BenchmarkApplication {

    public static void main(String[] args) {
        SpringApplication.run(BenchmarkApplication.class, args);
    }

}
