package io.sprout.boot.servlet.mapping;

import jakarta.servlet.http.MappingMatch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ServletMapperTest {

    private final ServletMapper mapper = new ServletMapper();

    @Test
    void prefersExactThenLongestPrefixThenExtensionThenDefault() {
        mapper.add("exact", "/a/b.do");
        mapper.add("short", "/a/*");
        mapper.add("long", "/a/b/*");
        mapper.add("ext", "*.do");
        mapper.add("default", "/");
        assertThat(mapper.match("/a/b.do").servletName()).isEqualTo("exact");
        assertThat(mapper.match("/a/b/c.do").servletName()).isEqualTo("long");
        assertThat(mapper.match("/a/x.do").servletName()).isEqualTo("short");
        assertThat(mapper.match("/z/x.do").servletName()).isEqualTo("ext");
        assertThat(mapper.match("/z/x").servletName()).isEqualTo("default");
    }

    @Test
    void splitsServletPathAndPathInfoForPrefixes() {
        mapper.add("s", "/api/*");
        ServletMatch match = mapper.match("/api/users/1");
        assertThat(match.servletPath()).isEqualTo("/api");
        assertThat(match.pathInfo()).isEqualTo("/users/1");
        assertThat(match.getMatchValue()).isEqualTo("users/1");
        assertThat(match.getPattern()).isEqualTo("/api/*");
        ServletMatch bare = mapper.match("/api");
        assertThat(bare.servletPath()).isEqualTo("/api");
        assertThat(bare.pathInfo()).isNull();
        assertThat(mapper.match("/apix")).isNull();
    }

    @Test
    void slashStarHasEmptyServletPath() {
        mapper.add("all", "/*");
        ServletMatch match = mapper.match("/x/y");
        assertThat(match.servletPath()).isEmpty();
        assertThat(match.pathInfo()).isEqualTo("/x/y");
    }

    @Test
    void contextRootMatchesOnlySlash() {
        mapper.add("root", "");
        mapper.add("default", "/");
        ServletMatch root = mapper.match("/");
        assertThat(root.mappingMatch()).isEqualTo(MappingMatch.CONTEXT_ROOT);
        assertThat(root.servletPath()).isEmpty();
        assertThat(root.pathInfo()).isEqualTo("/");
        assertThat(mapper.match("/x").servletName()).isEqualTo("default");
    }

    @Test
    void reportsConflictsWithoutChangingMappings() {
        mapper.add("first", "/x", "/y");
        assertThat(mapper.add("second", "/y", "/z")).containsExactly("/y");
        assertThat(mapper.match("/z")).isNull();
        assertThat(mapper.patternsOf("first")).containsExactlyInAnyOrder("/x", "/y");
    }

    @Test
    void anOverridableMappingYieldsToTheNextServletOnce() {
        mapper.addOverridable("default", "/");
        assertThat(mapper.match("/file.css").servletName()).isEqualTo("default");
        assertThat(mapper.add("dispatcher", "/")).isEmpty();
        assertThat(mapper.match("/file.css").servletName()).isEqualTo("dispatcher");
        assertThat(mapper.patternsOf("default")).isEmpty();
        assertThat(mapper.add("third", "/")).containsExactly("/");
        mapper.addOverridable("default", "/");
        assertThat(mapper.match("/file.css").servletName()).as("never takes a mapping back").isEqualTo("dispatcher");
    }

    @Test
    void rejectsInvalidPatterns() {
        assertThatIllegalArgumentException().isThrownBy(() -> mapper.add("bad", "no-slash"));
        assertThatIllegalArgumentException().isThrownBy(() -> mapper.add("bad", "/a/*/b"));
    }

    @Test
    void filterPatternsMatchPrefixesExtensionsAndExactPaths() {
        assertThat(UrlPatterns.filterMatches("/*", "/anything", false)).isTrue();
        assertThat(UrlPatterns.filterMatches("/api/*", "/api", false)).isTrue();
        assertThat(UrlPatterns.filterMatches("/api/*", "/apis", false)).isFalse();
        assertThat(UrlPatterns.filterMatches("*.json", "/a/b.json", false)).isTrue();
        assertThat(UrlPatterns.filterMatches("*.json", "/a.json/b", false)).isFalse();
        assertThat(UrlPatterns.filterMatches("/exact", "/exact", false)).isTrue();
        assertThat(UrlPatterns.filterMatches("/", "/x", true)).isTrue();
        assertThat(UrlPatterns.filterMatches("/", "/x", false)).isFalse();
    }
}
