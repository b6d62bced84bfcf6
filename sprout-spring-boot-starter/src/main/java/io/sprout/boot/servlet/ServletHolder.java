package io.sprout.boot.servlet;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;

import java.util.Collection;
import java.util.Set;

/**
 * One registered servlet: its registration data and its lifecycle (created and initialised once, on start-up
 * when {@code loadOnStartup >= 0}, else on its first request; destroyed with the context).
 */
final class ServletHolder extends ComponentHolder<Servlet> implements ServletRegistration.Dynamic, ServletConfig {

    private volatile Servlet instance;
    private volatile boolean initialized;
    private int loadOnStartup = -1;
    private boolean asyncSupported;
    private MultipartConfigElement multipartConfig;
    private String runAsRole;

    ServletHolder(SproutServletContext context, String name, Servlet instance, Class<? extends Servlet> type,
            String className) {
        super(context, name, instance, type, className);
        this.instance = instance;
    }

    /** The initialised servlet; initialises it on first use. */
    Servlet servlet() throws ServletException {
        if (!initialized) {
            synchronized (this) {
                if (!initialized) {
                    if (instance == null) {
                        instance = context.instantiate(componentClass("Servlet"));
                    }
                    instance.init(this);
                    initialized = true;
                }
            }
        }
        return instance;
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
    public String getServletName() {
        return name;
    }
}
