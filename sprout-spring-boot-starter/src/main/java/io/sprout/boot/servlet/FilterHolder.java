package io.sprout.boot.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One registered filter: registration data, its mappings, and its lifecycle (initialised when the context starts). */
final class FilterHolder implements FilterRegistration.Dynamic, FilterConfig {

    private final SproutServletContext context;
    private final String name;
    private final Class<? extends Filter> type;
    private final String className;
    private final InitParameters initParameters;
    private volatile Filter instance;
    private boolean initialized;
    private boolean asyncSupported;

    FilterHolder(SproutServletContext context, String name, Filter instance, Class<? extends Filter> type,
            String className) {
        this.context = context;
        this.initParameters = new InitParameters(context);
        this.name = name;
        this.instance = instance;
        this.type = type;
        this.className = className != null ? className : instance != null ? instance.getClass().getName()
                : type.getName();
    }

    @SuppressWarnings("unchecked")
    synchronized void init() throws ServletException {
        if (initialized) {
            return;
        }
        if (instance == null) {
            Class<? extends Filter> filterClass = type;
            if (filterClass == null) {
                try {
                    filterClass = (Class<? extends Filter>) context.getClassLoader().loadClass(className);
                } catch (ClassNotFoundException e) {
                    throw new ServletException("Filter class " + className + " not found", e);
                }
            }
            instance = context.instantiate(filterClass);
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
    public String getName() {
        return name;
    }

    @Override
    public String getClassName() {
        return className;
    }

    @Override
    public boolean setInitParameter(String key, String value) {
        return initParameters.set(key, value);
    }

    @Override
    public String getInitParameter(String key) {
        return initParameters.get(key);
    }

    @Override
    public Set<String> setInitParameters(Map<String, String> parameters) {
        return initParameters.setAll(parameters);
    }

    @Override
    public Map<String, String> getInitParameters() {
        return initParameters.asMap();
    }

    @Override
    public String getFilterName() {
        return name;
    }

    @Override
    public ServletContext getServletContext() {
        return context;
    }

    @Override
    public Enumeration<String> getInitParameterNames() {
        return initParameters.names();
    }
}
