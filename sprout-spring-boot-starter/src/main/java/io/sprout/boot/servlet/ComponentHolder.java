package io.sprout.boot.servlet;

import jakarta.servlet.Registration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

import java.util.Enumeration;
import java.util.Map;
import java.util.Set;

/**
 * What a registered servlet and a registered filter share: the name, the class given or named at registration, the
 * init parameters, and the {@link Registration} and config methods over them.
 *
 * @param <T> {@code Servlet} or {@code Filter}
 */
abstract class ComponentHolder<T> implements Registration {

    final SproutServletContext context;
    final String name;
    private final Class<? extends T> type;
    private final String className;
    private final InitParameters initParameters;

    ComponentHolder(SproutServletContext context, String name, T instance, Class<? extends T> type,
            String className) {
        this.context = context;
        this.initParameters = new InitParameters(context);
        this.name = name;
        this.type = type;
        this.className = className != null ? className : instance != null ? instance.getClass().getName()
                : type.getName();
    }

    /** The class registered, or the one named at registration, loaded by the context's class loader. */
    @SuppressWarnings("unchecked")
    Class<? extends T> componentClass(String kind) throws ServletException {
        if (type != null) {
            return type;
        }
        try {
            return (Class<? extends T>) context.getClassLoader().loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new ServletException(kind + " class " + className + " not found", e);
        }
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

    public Enumeration<String> getInitParameterNames() {
        return initParameters.names();
    }

    public ServletContext getServletContext() {
        return context;
    }
}
