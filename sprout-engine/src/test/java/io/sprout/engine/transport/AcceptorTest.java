package io.sprout.engine.transport;

import io.sprout.engine.ServerConfig;
import io.sprout.engine.exchange.ServerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.net.SocketOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What the acceptor sets on each accepted socket, read back from the real socket. */
class AcceptorTest {

    /** Two different sizes, so the OS's own default cannot pass for both. */
    @ParameterizedTest
    @ValueSource(ints = {64 * 1024, 200 * 1024})
    void setsTheConfiguredSendBuffer(int requested) throws Exception {
        int applied = acceptOne(ServerConfig.builder().socketSendBuffer(requested), StandardSocketOptions.SO_SNDBUF);

        // Linux doubles the value for its bookkeeping; other systems keep it.
        assertThat(applied).isBetween(requested, 2 * requested);
    }

    @Test
    void disablesNagle() throws Exception {
        assertThat(acceptOne(ServerConfig.builder(), StandardSocketOptions.TCP_NODELAY)).isTrue();
    }

    private static <T> T acceptOne(ServerConfig.Builder builder, SocketOption<T> option) throws Exception {
        ServerConfig config = builder.address(InetAddress.getLoopbackAddress()).port(0).build();
        BlockingQueue<T> seen = new ArrayBlockingQueue<>(1);
        ServerContext context = new ServerContext(config, (request, response) -> { }, Runnable::run,
                Runnable::run, Thread::new);
        Acceptor acceptor = Acceptor.bind(context, new ShedQueue(), (channel, admitted) -> {
            seen.add(channel.getOption(option));
            Acceptor.closeQuietly(channel);
        });
        acceptor.start("acceptor-test");
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), acceptor.ports().getFirst())) {
            T value = seen.poll(10, TimeUnit.SECONDS);
            assertThat(value).as("the accepted socket's " + option.name()).isNotNull();
            return value;
        } finally {
            acceptor.close();
            context.close();
        }
    }
}
