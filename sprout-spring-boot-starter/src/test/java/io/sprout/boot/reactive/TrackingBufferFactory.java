package io.sprout.boot.reactive;

import io.netty.buffer.UnpooledByteBufAllocator;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reference-counted buffers (Netty's, as on Reactor Netty), each kept track of, so a test can tell whether every
 * buffer it or the adapter made was released: a heap buffer's release does nothing, and would hide a leak.
 */
final class TrackingBufferFactory implements DataBufferFactory {

    private final NettyDataBufferFactory delegate = new NettyDataBufferFactory(new UnpooledByteBufAllocator(false));
    private final Queue<PooledDataBuffer> made = new ConcurrentLinkedQueue<>();

    /** How many buffers were made. */
    int made() {
        return made.size();
    }

    /** How many buffers made are still allocated: not yet released as often as retained. */
    long unreleased() {
        return made.stream().filter(PooledDataBuffer::isAllocated).count();
    }

    private DataBuffer tracked(DataBuffer buffer) {
        made.add((PooledDataBuffer) buffer);
        return buffer;
    }

    @Override
    @Deprecated
    public DataBuffer allocateBuffer() {
        return allocateBuffer(256);
    }

    @Override
    public DataBuffer allocateBuffer(int initialCapacity) {
        return tracked(delegate.allocateBuffer(initialCapacity));
    }

    @Override
    public DataBuffer wrap(ByteBuffer byteBuffer) {
        return tracked(delegate.wrap(byteBuffer));
    }

    @Override
    public DataBuffer wrap(byte[] bytes) {
        return tracked(delegate.wrap(bytes));
    }

    /** As Netty's factory joins: into a composite that owns the parts, and is tracked too. */
    @Override
    public DataBuffer join(List<? extends DataBuffer> dataBuffers) {
        return tracked(delegate.join(dataBuffers));
    }

    @Override
    public boolean isDirect() {
        return delegate.isDirect();
    }
}
