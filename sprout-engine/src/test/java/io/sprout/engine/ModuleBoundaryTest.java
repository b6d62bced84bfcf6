package io.sprout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The module descriptor is the engine's boundary: only the API package, the front door that makes a server and the
 * package of {@code WebSocketUpgrade} are exported, to everyone, and nothing beyond {@code java.base} is required.
 * Read from the compiled classes, so it holds however the tests are run.
 */
class ModuleBoundaryTest {

    @Test
    void exportsOnlyTheApiTheFrontDoorAndWebSocketUpgrade() {
        ModuleDescriptor descriptor = engineDescriptor();

        assertThat(descriptor.name()).isEqualTo("io.sprout.engine");
        assertThat(descriptor.exports()).allSatisfy(exports -> assertThat(exports.isQualified()).isFalse())
                .extracting(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("io.sprout.engine", "io.sprout.engine.server",
                        "io.sprout.engine.websocket");
        assertThat(descriptor.opens()).isEmpty();
        assertThat(descriptor.isOpen()).isFalse();
    }

    @Test
    void requiresNothingButTheBaseModule() {
        assertThat(engineDescriptor().requires()).extracting(Requires::name).containsExactly("java.base");
    }

    /** The descriptor of the directory or jar {@link SproutServer} was loaded from. */
    static ModuleDescriptor engineDescriptor() {
        Path location;
        try {
            location = Path.of(SproutServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Set<ModuleReference> modules = ModuleFinder.of(location).findAll();
        assertThat(modules).as("modules at " + location).hasSize(1);
        return modules.iterator().next().descriptor();
    }
}
