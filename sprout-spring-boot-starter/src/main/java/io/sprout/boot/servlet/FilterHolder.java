package io.sprout.boot.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** One registered filter: registration data, its mappings, and its lifecycle (initialised when the context starts). */
final class FilterHolder extends ComponentHolder<Filter> implements FilterRegistration.Dynamic, FilterConfig {

    private volatile Filter instance;
    private boolean initialized;
    private boolean asyncSupported;

    FilterHolder(SproutServletContext context, String name, Filter instance, Class<? extends Filter> type,
            String className) {
        super(context, name, instance, type, className);
        this.instance = instance;
    }

    synchronized void init() throws ServletException {
        if (initialized) {
            return;
        }
        if (instance == null) {
            instance = context.instantiate(componentClass("Filter"));
        }
        instance.init(this);
        initialized = true;
    }

    Filter filter() {
        return instance;
    }

    synchronized void destroy() {
        if (initialized) {
            initialized = false;
            instance.destroy();
        }
    }

    boolean asyncSupported() {
        return asyncSupported;
    }

    @Override
    public void addMappingForServletNames(EnumSet<DispatcherType> types, boolean isMatchAfter,
            String... servletNames) {
        context.checkInitializing();
        context.filterMappings().add(new FilterMapping(this, dispatcherTypes(types), List.of(),
                List.of(servletNames), isMatchAfter));
    }

    @Override
    public Collection<String> getServletNameMappings() {
        List<String> names = new ArrayList<>();
        context.filterMappings().forEachOf(this, mapping -> names.addAll(mapping.servletNames()));
        return names;
    }

    @Override
    public void addMappingForUrlPatterns(EnumSet<DispatcherType> types, boolean isMatchAfter,
            String... urlPatterns) {
        context.checkInitializing();
        for (String pattern : urlPatterns) {
            io.sprout.boot.servlet.mapping.UrlPatterns.kind(pattern);
        }
        context.filterMappings().add(new FilterMapping(this, dispatcherTypes(types), List.of(urlPatterns),
                List.of(), isMatchAfter));
    }

    private static Set<DispatcherType> dispatcherTypes(EnumSet<DispatcherType> types) {
        return types == null || types.isEmpty() ? EnumSet.of(DispatcherType.REQUEST) : EnumSet.copyOf(types);
    }

    @Override
    public Collection<String> getUrlPatternMappings() {
        List<String> patterns = new ArrayList<>();
        context.filterMappings().forEachOf(this, mapping -> patterns.addAll(mapping.urlPatterns()));
        return patterns;
    }

    @Override
    public void setAsyncSupported(boolean supported) {
        context.checkInitializing();
        asyncSupported = supported;
    }

    @Override
    public String getFilterName() {
        return name;
    }
}
