package io.sprout.boot.servlet;

import io.sprout.boot.servlet.session.SessionEvents;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestAttributeEvent;
import jakarta.servlet.ServletRequestAttributeListener;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

import java.util.ArrayList;
import java.util.EventListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The context's listeners, sorted by the interfaces they implement, and the events sent to them. */
final class Listeners implements SessionEvents {

    private final List<ServletContextListener> contextListeners = new CopyOnWriteArrayList<>();
    private final List<ServletContextAttributeListener> contextAttributeListeners = new CopyOnWriteArrayList<>();
    private final List<ServletRequestListener> requestListeners = new CopyOnWriteArrayList<>();
    private final List<ServletRequestAttributeListener> requestAttributeListeners = new CopyOnWriteArrayList<>();
    private final List<HttpSessionListener> sessionListeners = new CopyOnWriteArrayList<>();
    private final List<HttpSessionAttributeListener> sessionAttributeListeners = new CopyOnWriteArrayList<>();
    private final List<HttpSessionIdListener> sessionIdListeners = new CopyOnWriteArrayList<>();

    /** Whether the type is one a context accepts (Servlet spec 4.4.3.3). */
    static boolean supported(Class<?> type) {
        return ServletContextListener.class.isAssignableFrom(type)
                || ServletContextAttributeListener.class.isAssignableFrom(type)
                || ServletRequestListener.class.isAssignableFrom(type)
                || ServletRequestAttributeListener.class.isAssignableFrom(type)
                || HttpSessionListener.class.isAssignableFrom(type)
                || HttpSessionAttributeListener.class.isAssignableFrom(type)
                || HttpSessionIdListener.class.isAssignableFrom(type);
    }

    void add(EventListener listener) {
        if (listener instanceof ServletContextListener l) {
            contextListeners.add(l);
        }
        if (listener instanceof ServletContextAttributeListener l) {
            contextAttributeListeners.add(l);
        }
        if (listener instanceof ServletRequestListener l) {
            requestListeners.add(l);
        }
        if (listener instanceof ServletRequestAttributeListener l) {
            requestAttributeListeners.add(l);
        }
        if (listener instanceof HttpSessionListener l) {
            sessionListeners.add(l);
        }
        if (listener instanceof HttpSessionAttributeListener l) {
            sessionAttributeListeners.add(l);
        }
        if (listener instanceof HttpSessionIdListener l) {
            sessionIdListeners.add(l);
        }
    }

    void contextInitialized(ServletContext context) {
        ServletContextEvent event = new ServletContextEvent(context);
        contextListeners.forEach(l -> l.contextInitialized(event));
    }

    /** In reverse registration order, as the spec asks. */
    void contextDestroyed(ServletContext context) {
        ServletContextEvent event = new ServletContextEvent(context);
        List<ServletContextListener> reversed = new ArrayList<>(contextListeners);
        java.util.Collections.reverse(reversed);
        reversed.forEach(l -> l.contextDestroyed(event));
    }

    void contextAttributeChanged(ServletContext context, String name, Object value, Object old) {
        if (contextAttributeListeners.isEmpty()) {
            return;
        }
        for (ServletContextAttributeListener l : contextAttributeListeners) {
            if (old == null) {
                l.attributeAdded(new ServletContextAttributeEvent(context, name, value));
            } else if (value == null) {
                l.attributeRemoved(new ServletContextAttributeEvent(context, name, old));
            } else {
                l.attributeReplaced(new ServletContextAttributeEvent(context, name, old));
            }
        }
    }

    void requestAttributeChanged(ServletContext context, ServletRequest request, String name, Object value,
            Object old) {
        if (requestAttributeListeners.isEmpty()) {
            // Spring MVC changes attributes 31 times per request: no iterator for each when nobody listens.
            return;
        }
        for (ServletRequestAttributeListener l : requestAttributeListeners) {
            if (old == null) {
                l.attributeAdded(new ServletRequestAttributeEvent(context, request, name, value));
            } else if (value == null) {
                l.attributeRemoved(new ServletRequestAttributeEvent(context, request, name, old));
            } else {
                l.attributeReplaced(new ServletRequestAttributeEvent(context, request, name, old));
            }
        }
    }

    void requestInitialized(ServletContext context, ServletRequest request) {
        if (!requestListeners.isEmpty()) {
            ServletRequestEvent event = new ServletRequestEvent(context, request);
            requestListeners.forEach(l -> l.requestInitialized(event));
        }
    }

    void requestDestroyed(ServletContext context, ServletRequest request) {
        if (!requestListeners.isEmpty()) {
            ServletRequestEvent event = new ServletRequestEvent(context, request);
            List<ServletRequestListener> reversed = new ArrayList<>(requestListeners);
            java.util.Collections.reverse(reversed);
            reversed.forEach(l -> l.requestDestroyed(event));
        }
    }

    @Override
    public void created(HttpSession session) {
        HttpSessionEvent event = new HttpSessionEvent(session);
        sessionListeners.forEach(l -> l.sessionCreated(event));
    }

    @Override
    public void destroyed(HttpSession session) {
        HttpSessionEvent event = new HttpSessionEvent(session);
        sessionListeners.forEach(l -> l.sessionDestroyed(event));
    }

    @Override
    public void idChanged(HttpSession session, String oldId) {
        HttpSessionEvent event = new HttpSessionEvent(session);
        sessionIdListeners.forEach(l -> l.sessionIdChanged(event, oldId));
    }

    @Override
    public void attributeAdded(HttpSession session, String name, Object value) {
        sessionAttributeListeners.forEach(l -> l.attributeAdded(new HttpSessionBindingEvent(session, name, value)));
    }

    @Override
    public void attributeReplaced(HttpSession session, String name, Object oldValue) {
        sessionAttributeListeners.forEach(
                l -> l.attributeReplaced(new HttpSessionBindingEvent(session, name, oldValue)));
    }

    @Override
    public void attributeRemoved(HttpSession session, String name, Object value) {
        sessionAttributeListeners.forEach(l -> l.attributeRemoved(new HttpSessionBindingEvent(session, name, value)));
    }
}
