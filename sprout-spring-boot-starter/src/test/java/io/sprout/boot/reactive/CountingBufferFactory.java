package io.sprout.boot.reactive;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap buffer factory, counting the bytes of the buffers it allocates: given to the adapter, it tells how much of
 * the request body the adapter has read from the engine, whatever the application has consumed.
 */
final class CountingBufferFactory implements DataBufferFactory {

    private final DataBufferFactory delegate = new DefaultDataBufferFactory();
    private final AtomicLong allocated = new AtomicLong();

    long allocatedBytes() {
        return allocated.get();
    }

    @Override
    @Deprecated
    public DataBuffer allocateBuffer() {
        return allocateBuffer(DefaultDataBufferFactory.DEFAULT_INITIAL_CAPACITY);
    }

    @Override
    public DataBuffer allocateBuffer(int initialCapacity) {
        allocated.addAndGet(initialCapacity);
        return delegate.allocateBuffer(initialCapacity);
    }

    @Override
    public DataBuffer wrap(ByteBuffer byteBuffer) {
        return delegate.wrap(byteBuffer);
    }

    @Override
    public DataBuffer wrap(byte[] bytes) {
        return delegate.wrap(bytes);
    }

    @Override
    public DataBuffer join(List<? extends DataBuffer> dataBuffers) {
        return delegate.join(dataBuffers);
    }

    @Override
    public boolean isDirect() {
        return delegate.isDirect();
    }
}
