package io.sprout.boot;

import io.sprout.boot.web.SproutWebServer;
import io.sprout.engine.SproutServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter uses only what the engine's module exports. Spring Boot applications run on the class path, where
 * the module boundary is not enforced, so this test enforces it: the exported packages come from the engine's
 * module descriptor, and the uses from the starter's compiled classes (main and test), whose constant pools name
 * every class and descriptor they refer to, including types only reached through {@code var}.
 */
class EngineBoundaryTest {

    private static final Pattern ENGINE_CLASS = Pattern.compile("io/sprout/engine/[\\w/$]+");

    /** In a string, not a use: the scan must not report it. */
    private static final String ENGINE_NAME_IN_A_STRING = "io/sprout/engine/http/NamedInAStringOnly";

    @Test
    void usesOnlyTheEnginePackagesItsModuleExports() throws IOException {
        Set<String> exported = exportedPackages();
        List<String> violations = new ArrayList<>();
        for (Path classes : List.of(location(SproutWebServer.class), location(EngineBoundaryTest.class))) {
            for (Path file : classFiles(classes)) {
                for (String used : engineClassesUsedBy(Files.readAllBytes(file))) {
                    if (!exported.contains(packageOf(used))) {
                        violations.add(classes.relativize(file) + " uses " + used);
                    }
                }
            }
        }

        assertThat(exported).as("the engine's exported packages")
                .containsExactly("io.sprout.engine", "io.sprout.engine.server", "io.sprout.engine.websocket");
        assertThat(violations).as("starter classes using engine packages the engine's module does not export")
                .isEmpty();
    }

    @Test
    void findsEngineClassesInDescriptorsButNotInStringLiterals() throws IOException {
        Set<String> usedByServer = engineClassesUsedBy(Files.readAllBytes(
                location(SproutWebServer.class).resolve("io/sprout/boot/web/SproutWebServer.class")));
        Set<String> usedByThisTest = engineClassesUsedBy(Files.readAllBytes(
                location(EngineBoundaryTest.class).resolve("io/sprout/boot/EngineBoundaryTest.class")));

        assertThat(usedByServer).contains(SproutServer.class.getName());
        assertThat(usedByThisTest).contains(SproutServer.class.getName())
                .doesNotContain(ENGINE_NAME_IN_A_STRING.replace('/', '.'));
    }

    /** The packages the engine's module exports to everyone, read from its descriptor. */
    private static Set<String> exportedPackages() {
        Path engine = location(SproutServer.class);
        Set<ModuleReference> modules = ModuleFinder.of(engine).findAll();
        assertThat(modules).as("the engine module at " + engine).hasSize(1);
        return modules.iterator().next().descriptor().exports().stream()
                .filter(exports -> !exports.isQualified())
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The engine classes one class file refers to: the names in its constant pool's UTF-8 entries (class names,
     * field and method descriptors, generic signatures), leaving out those used as string literals.
     */
    static Set<String> engineClassesUsedBy(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        in.skipNBytes(8); // magic, minor and major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        BitSet literals = new BitSet(count);
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 8 -> literals.set(in.readUnsignedShort());
                case 7, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++; // a long or a double takes two entries
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        Set<String> used = new TreeSet<>();
        for (int i = 1; i < count; i++) {
            if (utf8[i] != null && !literals.get(i)) {
                Matcher name = ENGINE_CLASS.matcher(utf8[i]);
                while (name.find()) {
                    used.add(name.group().replace('/', '.'));
                }
            }
        }
        return used;
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    private static List<Path> classFiles(Path directory) throws IOException {
        assertThat(directory).as("compiled classes").isDirectory();
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".class")).sorted().toList();
        }
    }

    private static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
