package io.sprout.boot.servlet;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;

import java.util.Collection;
import java.util.Enumeration;
import java.util.Map;
import java.util.Set;

/**
 * One registered servlet: its registration data and its lifecycle (created and initialised once, on start-up
 * when {@code loadOnStartup >= 0}, else on its first request; destroyed with the context).
 */
final class ServletHolder implements ServletRegistration.Dynamic, ServletConfig {

    private final SproutServletContext context;
    private final String name;
    private final Class<? extends Servlet> type;
    private final String className;
    private final InitParameters initParameters;
    private volatile Servlet instance;
    private volatile boolean initialized;
    private int loadOnStartup = -1;
    private boolean asyncSupported;
    private MultipartConfigElement multipartConfig;
    private String runAsRole;

    ServletHolder(SproutServletContext context, String name, Servlet instance, Class<? extends Servlet> type,
            String className) {
        this.context = context;
        this.initParameters = new InitParameters(context);
        this.name = name;
        this.instance = instance;
        this.type = type;
        this.className = className != null ? className : instance != null ? instance.getClass().getName()
                : type.getName();
    }

    /** The initialised servlet; initialises it on first use. */
    Servlet servlet() throws ServletException {
        if (!initialized) {
            synchronized (this) {
                if (!initialized) {
                    if (instance == null) {
                        instance = context.instantiate(servletClass());
                    }
                    instance.init(this);
                    initialized = true;
                }
            }
        }
        return instance;
    }

    @SuppressWarnings("unchecked")
    private Class<? extends Servlet> servletClass() throws ServletException {
        if (type != null) {
            return type;
        }
        try {
            return (Class<? extends Servlet>) context.getClassLoader().loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new ServletException("Servlet class " + className + " not found", e);
        }
    }

    synchronized void destroy() {
        if (initialized) {
            initialized = false;
            instance.destroy();
        }
    }

    int loadOnStartup() {
        return loadOnStartup;
    }

    boolean asyncSupported() {
        return asyncSupported;
    }

    MultipartConfigElement multipartConfig() {
        return multipartConfig;
    }

    @Override
    public void setLoadOnStartup(int value) {
        context.checkInitializing();
        loadOnStartup = value;
    }

    @Override
    public Set<String> setServletSecurity(ServletSecurityElement constraint) {
        throw Unsupported.containerSecurity("ServletRegistration.Dynamic.setServletSecurity");
    }

    @Override
    public void setMultipartConfig(MultipartConfigElement config) {
        context.checkInitializing();
        multipartConfig = config;
    }

    @Override
    public void setRunAsRole(String role) {
        runAsRole = role;
    }

    @Override
    public void setAsyncSupported(boolean supported) {
        context.checkInitializing();
        asyncSupported = supported;
    }

    @Override
    public Set<String> addMapping(String... patterns) {
        context.checkInitializing();
        return context.mapper().add(name, patterns);
    }

    @Override
    public Collection<String> getMappings() {
        return context.mapper().patternsOf(name);
    }

    @Override
    public String getRunAsRole() {
        return runAsRole;
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
    public String getServletName() {
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
